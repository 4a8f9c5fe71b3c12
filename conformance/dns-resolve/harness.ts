import { expect } from '../runner.js';
import { runClientGroups } from '../register.js';
import type { DnsAnswer, DnsResourceRecord } from '../../lib/dns-answer.js';
import { DnsClient, type DnsTarget } from '../dns/harness.js';
import type { DnsResolveDifferenceId } from './differences.js';

/**
 * Something the resolution suite can run against: the records API (to create records, as a DNS
 * client such as certbot does) and a way to ask the zone's nameservers a question.
 */
export interface DnsResolveTarget extends Omit<DnsTarget, 'differences' | 'groups'> {
  /**
   * What the zone's authoritative servers answer: the double's `api.resolve`, or a query to the real
   * nameservers decoded into the same shape (record data may then hold Buffers and `UNKNOWN_<n>` types).
   */
  resolve(name: string, type: string): Promise<DnsAnswer>;
  /** The zone's assigned nameservers, as `GET /zones/{id}` gives them. */
  nameServers: readonly string[];
  /** How long a change may take to show in DNS; tests poll until then. Default 0 (at once). */
  propagationMs?: number;
  differences?: readonly DnsResolveDifferenceId[];
  /** The zone's plan allows `settings.flatten_cname` (paid plans). Default false: that test is skipped. */
  paidPlan?: boolean;
}

/** Options of one resolution conformance test: what it needs of a target, and the differences it may show. */
interface ResolveTestOptions {
  difference?: DnsResolveDifferenceId;
  /** Skip (with this reason in the name) when set. */
  skip?: string;
}

/** One test's view: a DnsClient (records under a random subdomain, deleted after) plus DNS questions. */
class ResolveClient extends DnsClient {
  constructor(readonly resolveTarget: DnsResolveTarget) {
    super(resolveTarget as DnsTarget);
  }

  /** Asks the target for `name`/`type`: the response code, flags and sections. */
  resolve(name: string, type: string): Promise<DnsAnswer> {
    return this.resolveTarget.resolve(name, type);
  }

  /**
   * Asks until `ok` holds or the target's propagation time has passed, then returns the last answer
   * (the caller's expectations then say what is wrong). The double answers at once: one question.
   */
  async eventually(name: string, type: string, ok: (a: DnsAnswer) => boolean): Promise<DnsAnswer> {
    const until = Date.now() + (this.resolveTarget.propagationMs ?? 0);
    for (;;) {
      const a = await this.resolve(name, type);
      if (ok(a) || Date.now() >= until) return a;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** What a resolution conformance group defines its tests with. */
export interface ResolveGroupContext {
  target: DnsResolveTarget;
  /** Registers a test; it is expected to fail on targets that declare its difference. */
  test(name: string, fn: (c: ResolveClient) => Promise<void>, options?: ResolveTestOptions): void;
}

/** A named group of resolution conformance tests. */
export interface ResolveGroup {
  name: string;
  /** Registers the group's tests. */
  define(t: ResolveGroupContext): void;
}

export const defineResolveGroup = (name: string, define: (t: ResolveGroupContext) => void): ResolveGroup => ({
  name,
  define,
});

export function runResolveGroups(groups: readonly ResolveGroup[], target: DnsResolveTarget): void {
  runClientGroups(`dns resolution conformance on ${target.name ?? target.zoneName}`, groups, {
    differences: target.differences,
    timeout: target.timeout,
    client: () => new ResolveClient(target),
    context: (test) => ({ target, test }),
  });
}

// ---- reading answers the same way from the double and from decoded packets ----------------------

/** Type mnemonics, whichever way a target spells them (`UNKNOWN_65` from dns-packet is `HTTPS`). */
const NUMBERED: Record<string, string> = { UNKNOWN_65: 'HTTPS', UNKNOWN_64: 'SVCB', UNKNOWN_256: 'URI' };
export const typeOf = (rr: DnsResourceRecord): string => NUMBERED[rr.type] ?? rr.type;

/** The records of one type in a section. */
export const ofType = (rrs: readonly DnsResourceRecord[], type: string) => rrs.filter((rr) => typeOf(rr) === type);

/** TXT values as text: each record's character-strings joined (strings or bytes). */
export function txtValues(a: DnsAnswer): string[] {
  const dec = new TextDecoder();
  return ofType(a.answers, 'TXT').map((rr) =>
    (rr.data as (string | Uint8Array)[]).map((s) => (typeof s === 'string' ? s : dec.decode(s))).join(''),
  );
}

/** TXT character-string lengths in bytes, per record. */
export function txtLengths(a: DnsAnswer): number[][] {
  return ofType(a.answers, 'TXT').map((rr) =>
    (rr.data as (string | Uint8Array)[]).map((s) =>
      typeof s === 'string' ? new TextEncoder().encode(s).length : s.length,
    ),
  );
}

/** A negative answer's SOA in authority, checked to be there. */
export function expectSoaAuthority(a: DnsAnswer): void {
  expect(ofType(a.authorities, 'SOA'), JSON.stringify(a)).toHaveLength(1);
}

/** Owner names compare without case or a trailing dot. */
export const sameName = (x: string, y: string) =>
  x.toLowerCase().replace(/\.$/, '') === y.toLowerCase().replace(/\.$/, '');
