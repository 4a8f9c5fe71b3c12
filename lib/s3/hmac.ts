/**
 * HMAC-SHA256 for SigV4. Node's native HMAC where the platform has one (found as lib/hash.ts finds
 * node:crypto: `process.getBuiltinModule`, no static `node:` import), which is synchronous; the
 * platform's WebCrypto elsewhere (browsers, workerd without nodejs_compat). WebCrypto's HMAC in
 * Node goes through a thread pool, and that hop cost more than the rest of a request's checks.
 */
import { utf8 } from '../bytes.js';

interface NodeHmac {
  createHmac(alg: 'sha256', key: Uint8Array): { update(data: Uint8Array): { digest(): Uint8Array } };
}

function findNodeHmac(): NodeHmac | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as NodeHmac | undefined;
    return mod && typeof mod.createHmac === 'function' ? mod : undefined;
  } catch {
    return undefined;
  }
}

const native = findNodeHmac();

/** A key ready for repeated use: raw bytes for the native HMAC, an imported CryptoKey for WebCrypto. */
export type HmacKey = Uint8Array | CryptoKey;

export function hmacKey(raw: Uint8Array): HmacKey | Promise<HmacKey> {
  if (native) return raw;
  return globalThis.crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

export function hmacSha256(key: HmacKey, data: string): Uint8Array | Promise<Uint8Array> {
  if (native && key instanceof Uint8Array) return new Uint8Array(native.createHmac('sha256', key).update(utf8(data)).digest());
  return webCryptoHmacSha256(key, data);
}

/** The WebCrypto path, also exported so its tests run where the native one is used. */
export async function webCryptoHmacSha256(key: HmacKey, data: string): Promise<Uint8Array> {
  const subtle = globalThis.crypto.subtle;
  const k =
    key instanceof Uint8Array
      ? await subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
      : key;
  return new Uint8Array(await subtle.sign('HMAC', k, utf8(data) as Uint8Array<ArrayBuffer>));
}
