/**
 * Where a resolution target knowingly differs from Cloudflare's authoritative DNS: declared once,
 * here, as data. A target that lists an id runs that test as an expected failure, so a difference
 * that disappears turns red.
 */
export const dnsResolveDifferences = {
  'edge-addresses': {
    shownBy: 'a double with proxyAddresses set (e.g. loopback, for an offline HTTP-01 check)',
    why: "Proxied names answer with the configured addresses instead of addresses in Cloudflare's published ranges (docs/sources/dns-wire.md#proxied-names).",
  },
  'dnssec-compact-denial': {
    shownBy: 'a real zone with DNSSEC on (CLOUDFLARE_ZONE_DNSSEC=true)',
    why: 'Signed Cloudflare zones answer a missing name NOERROR with an NSEC ("black lies", RFC 9824), not NXDOMAIN (blog.cloudflare.com/black-lies); the double does so only to questions with the DO bit, which this suite does not set, and answers it NXDOMAIN (docs/sources/dns-wire.md#dnssec).',
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

/** The id of a declared difference: a target lists the ones it shows in `differences`. */
export type DnsResolveDifferenceId = keyof typeof dnsResolveDifferences;
