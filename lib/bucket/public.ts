/**
 * A bucket's public access: whether its managed `r2.dev` domain serves it, and the custom domains
 * connected to it (docs r2/buckets/public-buckets; docs/sources/r2-api.md#public-access). A setting
 * of the bucket, kept in its configuration (config.ts) with the CORS policy, so snapshots, restore
 * and a deleted bucket's `clear` cover it as they cover CORS. The hosts themselves are served by
 * lib/r2-public/.
 *
 * Values are frozen and replaced whole, never changed in place (a snapshot is O(1)).
 */

/** TLS versions a custom domain may require (the SDK's `minTLS` enum). */
export type MinTls = '1.0' | '1.1' | '1.2' | '1.3';

/** A custom domain connected to the bucket, as the API keeps it (the SDK's CustomGetResponse). */
export interface CustomDomain {
  /** Lowercase, no trailing dot. */
  readonly domain: string;
  readonly enabled: boolean;
  readonly zoneId: string;
  readonly zoneName: string;
  readonly minTLS: MinTls;
  readonly ciphers?: readonly string[];
}

export interface PublicAccess {
  /** Whether the managed `pub-<32 hex>.r2.dev` domain serves the bucket (`dev-url enable`). */
  readonly managed: boolean;
  /** The custom domains, in the order connected. */
  readonly custom: readonly CustomDomain[];
}

/** No public access: what a new bucket has (r2.dev is off until enabled; the docs: public-buckets.mdx). */
export const NO_PUBLIC_ACCESS: PublicAccess = Object.freeze({ managed: false, custom: Object.freeze([]) });

/** A frozen copy. */
export const frozenPublicAccess = (p: PublicAccess): PublicAccess =>
  Object.freeze({
    managed: p.managed,
    custom: Object.freeze(
      p.custom.map((d) => Object.freeze({ ...d, ...(d.ciphers ? { ciphers: Object.freeze([...d.ciphers]) } : {}) })),
    ),
  });

/** Whether `host` (lowercase) is one of the enabled custom domains. */
export const servesCustomDomain = (p: PublicAccess, host: string): boolean =>
  p.custom.some((d) => d.enabled && d.domain === host);
