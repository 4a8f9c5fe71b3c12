/**
 * IP address rules: strict IPv4, IPv6 canonicalised by the platform's URL parser (RFC 5952 form),
 * and the ranges that decide `proxiable` and the provider's own-network refusal.
 */

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

/** Dotted quad only: no shorthand (`127.1`), no leading zeros, no IPv6. */
export const isIPv4 = (s: string): boolean => IPV4.test(s);

/** The canonical text of an IPv6 address (lowercase, `::` compression), or undefined. */
export function canonicalIPv6(s: string): string | undefined {
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  try {
    const host = new URL(`http://[${s}]/`).hostname;
    return host.slice(1, -1);
  } catch {
    return undefined;
  }
}

const v4ToInt = (ip: string): number => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);

function v4Range(cidr: string): (n: number) => boolean {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  const start = v4ToInt(base);
  return (n) => n >= start && n < start + size;
}

/** Eight 16-bit groups of a canonical IPv6 address. */
function v6Groups(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]!);
    text = text.slice(0, dotted.index) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...zeros, ...t].map((g) => parseInt(g, 16));
}

function v6Range(cidr: string): (g: number[]) => boolean {
  const [base, bitsText] = cidr.split('/') as [string, string];
  const bits = Number(bitsText);
  const b = v6Groups(base);
  return (g) => {
    for (let i = 0, left = bits; left > 0; i++, left -= 16) {
      const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
      if ((g[i]! & mask) !== (b[i]! & mask)) return false;
    }
    return true;
  };
}

// Private, loopback, link-local and CGNAT space: never proxiable (docs/sources/dns-api.md#proxying).
const PRIVATE_V4 = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '0.0.0.0/8',
].map(v4Range);
const PRIVATE_V6 = ['fc00::/7', 'fe80::/10', '::1/128', '::/128'].map(v6Range);

// The provider's published ranges (cloudflare.com/ips), plus the resolver prefixes a 2026 report
// shows refused ("Target 1.1.1.1 is not allowed for a proxied record").
const PROVIDER_V4 = [
  '173.245.48.0/20',
  '103.21.244.0/22',
  '103.22.200.0/22',
  '103.31.4.0/22',
  '141.101.64.0/18',
  '108.162.192.0/18',
  '190.93.240.0/20',
  '188.114.96.0/20',
  '197.234.240.0/22',
  '198.41.128.0/17',
  '162.158.0.0/15',
  '104.16.0.0/13',
  '104.24.0.0/14',
  '172.64.0.0/13',
  '131.0.72.0/22',
  '1.1.1.0/24',
  '1.0.0.0/24',
].map(v4Range);
const PROVIDER_V6 = [
  '2400:cb00::/32',
  '2606:4700::/32',
  '2803:f800::/32',
  '2405:b500::/32',
  '2405:8100::/32',
  '2a06:98c0::/29',
  '2c0f:f248::/32',
].map(v6Range);

export function isPrivateAddress(type: 'A' | 'AAAA', ip: string): boolean {
  if (type === 'A') {
    const n = v4ToInt(ip);
    return PRIVATE_V4.some((r) => r(n));
  }
  const g = v6Groups(ip);
  return PRIVATE_V6.some((r) => r(g));
}

export function isProviderAddress(type: 'A' | 'AAAA', ip: string): boolean {
  if (type === 'A') {
    const n = v4ToInt(ip);
    return PROVIDER_V4.some((r) => r(n));
  }
  const g = v6Groups(ip);
  return PROVIDER_V6.some((r) => r(g));
}
