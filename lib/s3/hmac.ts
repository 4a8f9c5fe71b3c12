/**
 * HMAC-SHA256 for SigV4. Node's native HMAC where the platform has one (found as lib/hash.ts finds
 * node:crypto: `process.getBuiltinModule`, no static `node:` import), which is synchronous; the
 * platform's WebCrypto elsewhere (browsers, workerd without nodejs_compat). WebCrypto's HMAC in
 * Node goes through a thread pool, and that hop cost more than the rest of a request's checks.
 */
import { toHex, utf8 } from '../bytes.js';

/** What node:crypto offers here; a `NodeSecretKey` is its KeyObject, opaque to this module. */
type NodeSecretKey = { readonly type: 'secret' };
interface NodeHmac {
  createHmac(
    alg: 'sha256',
    key: Uint8Array | NodeSecretKey,
  ): { update(data: Uint8Array | string): { digest(): Uint8Array; digest(encoding: 'hex'): string } };
  createSecretKey?(key: Uint8Array): NodeSecretKey;
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

/** Whether createHmac takes a KeyObject here (Node's does; another runtime's node:crypto may not): probed once. */
function takesKeyObjects(mod: NodeHmac): boolean {
  try {
    mod
      .createHmac('sha256', mod.createSecretKey!(new Uint8Array(32)))
      .update('')
      .digest('hex');
    return true;
  } catch {
    return false;
  }
}

/** The native HMAC and whether it takes KeyObjects, found on first use (as lib/hash.ts finds node:crypto). */
let found: { native: NodeHmac | undefined; keyObjects: boolean } | undefined;
function nativeHmac(): { native: NodeHmac | undefined; keyObjects: boolean } {
  if (found) return found;
  const native = findNodeHmac();
  return (found = { native, keyObjects: native?.createSecretKey !== undefined && takesKeyObjects(native) });
}

/**
 * A key ready for repeated use: for the native HMAC a KeyObject (Node then skips preparing the key
 * on every request) or raw bytes; an imported CryptoKey for WebCrypto.
 */
export type HmacKey = Uint8Array | CryptoKey | NodeSecretKey;

export function hmacKey(raw: Uint8Array): HmacKey | Promise<HmacKey> {
  const { native, keyObjects } = nativeHmac();
  if (native) return keyObjects ? native.createSecretKey!(raw) : raw;
  return globalThis.crypto.subtle.importKey(
    'raw',
    raw as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
}

const isNativeKey = (key: HmacKey): key is Uint8Array | NodeSecretKey =>
  key instanceof Uint8Array || !(globalThis.CryptoKey && key instanceof CryptoKey);

export function hmacSha256(key: HmacKey, data: string): Uint8Array | Promise<Uint8Array> {
  const { native } = nativeHmac();
  if (native && isNativeKey(key)) return new Uint8Array(native.createHmac('sha256', key).update(data).digest());
  return webCryptoHmacSha256(key, data);
}

/**
 * The MAC as lowercase hex (a SigV4 signature). Natively the string goes in as it is and hex comes
 * out of Node: no UTF-8 encoding or hex formatting in JavaScript on every request.
 */
export function hmacSha256Hex(key: HmacKey, data: string): string | Promise<string> {
  const { native } = nativeHmac();
  if (native && isNativeKey(key)) return native.createHmac('sha256', key).update(data).digest('hex');
  return webCryptoHmacSha256(key, data).then(toHex);
}

/** The WebCrypto path, also exported so its tests run where the native one is used. */
export async function webCryptoHmacSha256(key: HmacKey, data: string): Promise<Uint8Array> {
  const subtle = globalThis.crypto.subtle;
  // A node:crypto key is only made where the native HMAC is used (hmacKey), so never reaches here.
  const k =
    key instanceof Uint8Array
      ? await subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, [
          'sign',
        ])
      : (key as CryptoKey);
  return new Uint8Array(await subtle.sign('HMAC', k, utf8(data) as Uint8Array<ArrayBuffer>));
}
