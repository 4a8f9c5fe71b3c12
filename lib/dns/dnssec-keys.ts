/**
 * A zone's DNSSEC key material: a key-signing key (DNSKEY flags 257) and a zone-signing key (256),
 * both ECDSA P-256 with SHA-256 (algorithm 13, RFC 6605), made with WebCrypto so that it runs in
 * Node, browsers and workerd alike, and the values the API shows and a registrar takes: the key tag
 * (RFC 4034 Appendix B) and the DS digest (SHA-256 of the owner name and the DNSKEY RDATA, RFC 4509).
 * The facts and their sources: docs/sources/dns-wire.md#dnssec.
 *
 * Keys are plain data (the private halves as JWK), so the zone's settings keep them through
 * snapshots, reset and `--persist`; the CryptoKey a signature needs is imported once per key.
 */
import { concat, fromBase64, toBase64, toHex } from '../bytes.js';
import { digest } from '../hash.js';
import { nameBytes } from './rdata-bytes.js';

/** ECDSA Curve P-256 with SHA-256 (RFC 6605 §2; IANA "DNS Security Algorithm Numbers"). */
export const ALGORITHM = 13;
/** DS digest type 2, SHA-256 (RFC 4509). */
export const DIGEST_TYPE = 2;
/** DNSKEY flags: Zone Key (256), plus Secure Entry Point (1) for the key-signing key (RFC 4034 §2.1.1). */
const ZSK_FLAGS = 256;
const KSK_FLAGS = 257;
/** The DNSKEY protocol field, always 3 (RFC 4034 §2.1.2). */
const PROTOCOL = 3;

/** One key: its DNSKEY flags, public key (base64 of x‖y, 64 bytes, RFC 6605 §4), key tag and private half. */
export interface DnssecKey {
  readonly flags: typeof KSK_FLAGS | typeof ZSK_FLAGS;
  readonly publicKey: string;
  readonly tag: number;
  /** The private key as a JWK (kty EC, crv P-256, x, y, d): plain data that persists. */
  readonly privateKey: JsonWebKey;
}

/** A zone's keys, and its DS digest (upper-case hex, as the API shows it). Replaced whole, never changed. */
export interface DnssecKeys {
  readonly ksk: DnssecKey;
  readonly zsk: DnssecKey;
  readonly digest: string;
}

const EC: EcKeyImportParams = { name: 'ECDSA', namedCurve: 'P-256' };

/** The DNSKEY RDATA of a key: flags, protocol 3, algorithm, public key (RFC 4034 §2.1). */
export function dnskeyRdata(flags: number, publicKey: string): Uint8Array {
  const key = fromBase64(publicKey);
  if (key === undefined) throw new Error('DNSKEY public key is not base64');
  return concat([new Uint8Array([flags >> 8, flags & 0xff, PROTOCOL, ALGORITHM]), key]);
}

/** RFC 4034 Appendix B: the key tag of a DNSKEY RDATA (algorithm 1 aside, which the double never makes). */
export function keyTag(rdata: Uint8Array): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i]! : rdata[i]! << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

/** RFC 4509 §2.1 (RFC 4034 §5.1.4): SHA-256 over the owner's canonical wire name and the DNSKEY RDATA. */
export function dsDigest(zone: string, rdata: Uint8Array): string {
  return toHex(digest('sha256', concat([nameBytes(zone.toLowerCase()), rdata]))).toUpperCase();
}

/** The DS RDATA of the zone's key-signing key (RFC 4034 §5.1): what a registrar publishes. */
export function dsRdata(keys: DnssecKeys): Uint8Array {
  const digestBytes = Uint8Array.from(keys.digest.match(/../g)!, (h) => parseInt(h, 16));
  return concat([new Uint8Array([keys.ksk.tag >> 8, keys.ksk.tag & 0xff, ALGORITHM, DIGEST_TYPE]), digestBytes]);
}

function subtle(): SubtleCrypto {
  const s = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!s) throw new Error('DNSSEC needs WebCrypto (globalThis.crypto.subtle), which this runtime lacks');
  return s;
}

async function makeKey(flags: DnssecKey['flags']): Promise<DnssecKey> {
  const pair = (await subtle().generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  // The raw public key is 0x04 ‖ x ‖ y (SEC 1 uncompressed); DNSSEC keeps x ‖ y (RFC 6605 §4).
  const raw = new Uint8Array(await subtle().exportKey('raw', pair.publicKey)).subarray(1);
  const publicKey = toBase64(raw);
  const privateKey = await subtle().exportKey('jwk', pair.privateKey);
  return { flags, publicKey, tag: keyTag(dnskeyRdata(flags, publicKey)), privateKey };
}

/** A new key-signing and zone-signing key for `zone` (its apex, lower case). */
export async function makeDnssecKeys(zone: string): Promise<DnssecKeys> {
  const [ksk, zsk] = await Promise.all([makeKey(KSK_FLAGS), makeKey(ZSK_FLAGS)]);
  return { ksk, zsk, digest: dsDigest(zone, dnskeyRdata(ksk.flags, ksk.publicKey)) };
}

const signingKeys = new WeakMap<DnssecKey, Promise<CryptoKey>>();

/** The key's private half as a CryptoKey for signing: imported once per key object. */
function signingKey(key: DnssecKey): Promise<CryptoKey> {
  let k = signingKeys.get(key);
  if (!k) {
    k = subtle().importKey('jwk', key.privateKey, EC, false, ['sign']);
    signingKeys.set(key, k);
  }
  return k;
}

/**
 * An ECDSA P-256 / SHA-256 signature of `data` with `key`: WebCrypto gives r ‖ s, 64 bytes, which
 * is exactly the RRSIG signature field of algorithm 13 (RFC 6605 §4). Randomised, as ECDSA is.
 */
export async function signWith(key: DnssecKey, data: Uint8Array): Promise<Uint8Array> {
  const sig = await subtle().sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    await signingKey(key),
    data as Uint8Array<ArrayBuffer>,
  );
  return new Uint8Array(sig);
}
