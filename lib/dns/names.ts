/**
 * Record names: `@`, relative names, trailing dot, case, IDNA (through the platform's URL parser,
 * which does UTS #46 in Node, browsers and workerd) and the label rules.
 */
import { dnsErrors } from './errors.js';

// eslint-disable-next-line no-control-regex -- a byte range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

/** Punycode one label; undefined when the platform refuses it. */
function toAsciiLabel(label: string): string | undefined {
  try {
    // A suffix keeps an all-digit label from being read as an IPv4 address.
    const host = new URL(`http://${label}.invalid/`).hostname;
    return host.endsWith('.invalid') ? host.slice(0, -'.invalid'.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Lowercase, punycode, no trailing dot. Does not append the zone; returns undefined when invalid. */
export function asciiName(raw: string): string | undefined {
  const name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  if (ASCII.test(name)) return name.toLowerCase();
  const out: string[] = [];
  for (const label of name.split('.')) {
    if (ASCII.test(label)) out.push(label.toLowerCase());
    else {
      const a = toAsciiLabel(label);
      if (a === undefined) return undefined;
      out.push(a);
    }
  }
  return out.join('.');
}

const TODAY_LABEL = /^[a-z0-9_-]+$/;
// The interface document's label rule (docs/sources/dns-api.md#the-interface-document): starts with
// a letter, ends with a letter or digit, letters, digits, hyphens; underscores allowed. We read
// "letter" as also admitting the allowed underscore.
const DOCUMENT_LABEL = /^[a-z_](?:[a-z0-9_-]*[a-z0-9_])?$/;
const PUNYCODE_LABEL = /^xn--[a-z0-9-]+$/;

export interface NameRules {
  /** Apply the document's stricter label rule (A, AAAA and CNAME names in document mode). */
  strictLabels: boolean;
}

/**
 * The stored FQDN for `raw` in zone `zone` (already normalised). Throws the API's 9000 error.
 * Only the labels the caller supplied are checked; the zone's own labels are the zone's business.
 */
export function normaliseName(raw: string, zone: string, rules: NameRules): string {
  if (raw === '') throw dnsErrors.invalidName();
  if (raw === '@') return zone;
  const ascii = asciiName(raw);
  if (ascii === undefined || ascii === '') throw dnsErrors.invalidName();
  const fqdn = ascii === zone || ascii.endsWith(`.${zone}`) ? ascii : `${ascii}.${zone}`;
  if (fqdn.length > 253) throw dnsErrors.invalidName();
  if (fqdn === zone) return fqdn;
  const own = fqdn.slice(0, -(zone.length + 1)).split('.');
  const pattern = rules.strictLabels ? DOCUMENT_LABEL : TODAY_LABEL;
  for (let i = 0; i < own.length; i++) {
    const label = own[i]!;
    if (label.length === 0 || label.length > 63) throw dnsErrors.invalidName();
    if (label === '*') {
      if (i !== 0) throw dnsErrors.invalidName();
      continue;
    }
    if (!pattern.test(label) && !PUNYCODE_LABEL.test(label)) throw dnsErrors.invalidName();
  }
  return fqdn;
}

/** A host name in content (CNAME, MX, NS, PTR, SRV targets): lowercase, punycode, no trailing dot. */
export function normaliseHost(raw: string): string | undefined {
  if (raw === '' || /\s/.test(raw)) return undefined;
  const ascii = asciiName(raw);
  if (!ascii || ascii.length > 253) return undefined;
  for (const label of ascii.split('.')) {
    if (label.length === 0 || label.length > 63) return undefined;
    if (!/^[a-z0-9_*-]+$/.test(label)) return undefined;
  }
  return ascii;
}

/** Normalises a zone name given to the constructor (throws a plain Error: it is a programming error). */
export function normaliseZoneName(raw: string): string {
  const n = asciiName(raw.trim());
  if (!n || !n.includes('.') || n.split('.').some((l) => !/^[a-z0-9-]{1,63}$/.test(l))) {
    throw new Error(`DnsApi: invalid zone name ${JSON.stringify(raw)}`);
  }
  return n;
}
