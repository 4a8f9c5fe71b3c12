/**
 * Hashing with the platform's native implementation where one exists, @noble/hashes elsewhere.
 *
 * Node (and workerd with nodejs_compat) expose `node:crypto` through `process.getBuiltinModule`,
 * which needs no static `node:` import, so this module still loads in browsers and workerd.
 * WebCrypto is not used: it has no MD5 (outside workerd) and no incremental digests.
 */
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import { toHex, utf8 } from './bytes.js';

export type HashAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha384' | 'sha512';

export interface Hasher {
  update(bytes: Uint8Array): Hasher;
  digest(): Uint8Array;
}

interface NodeCrypto {
  createHash(alg: string): { update(b: Uint8Array): unknown; digest(): Uint8Array };
  /** One-shot hashing (Node ≥ 20.12): much cheaper than createHash for small inputs. */
  hash?(alg: string, data: Uint8Array, encoding: 'buffer'): Uint8Array;
  hash?(alg: string, data: Uint8Array | string, encoding: 'hex'): string;
}

function findNodeCrypto(): NodeCrypto | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
    if (mod && typeof mod.createHash === 'function') {
      mod.createHash('md5').digest(); // some builds (FIPS) refuse md5: fall back then
      return mod;
    }
  } catch {
    /* not available: use the portable implementation */
  }
  return undefined;
}

/** null: looked for and absent. Looked for on the first hash: loading node:crypto costs an import of the package a few ms. */
let found: NodeCrypto | null | undefined;
function native(): NodeCrypto | undefined {
  if (found === undefined) found = findNodeCrypto() ?? null;
  return found ?? undefined;
}
const noble = { md5, sha1, sha256, sha384, sha512 } as const;

/** Which implementation is in use, for the bench and for tests that want to say so. */
export const hashImplementation = (): 'native' | 'noble' => (native() ? 'native' : 'noble');

export function createHasher(alg: HashAlgorithm): Hasher {
  const nodeCrypto = native();
  return nodeCrypto ? nativeHasher(nodeCrypto, alg) : portableHasher(alg);
}

function nativeHasher(crypto: NodeCrypto, alg: HashAlgorithm): Hasher {
  const h = crypto.createHash(alg);
  const hasher: Hasher = {
    update(b) {
      h.update(b);
      return hasher;
    },
    digest: () => new Uint8Array(h.digest()),
  };
  return hasher;
}

/** The pure-JS implementation used where the platform has none (exported for its own tests). */
export function portableHasher(alg: HashAlgorithm): Hasher {
  const h = noble[alg].create();
  const hasher: Hasher = {
    update(b) {
      h.update(b);
      return hasher;
    },
    digest: () => h.digest(),
  };
  return hasher;
}

/**
 * Whether hashing was given one buffer rather than a list. Not `instanceof Uint8Array`: a buffer
 * from another realm (jsdom's TextEncoder under Vitest's jsdom environment) fails that test and
 * would be taken for a list of chunks.
 */
const isBytes = (data: Uint8Array | readonly Uint8Array[]): data is Uint8Array => ArrayBuffer.isView(data);

/** The digest of some bytes, given whole or as the chunks they arrived in. */
export function digest(alg: HashAlgorithm, data: Uint8Array | readonly Uint8Array[]): Uint8Array {
  const chunks = isBytes(data) ? [data] : data;
  const nodeCrypto = native();
  if (chunks.length === 1 && nodeCrypto?.hash) return new Uint8Array(nodeCrypto.hash(alg, chunks[0]!, 'buffer'));
  const h = createHasher(alg);
  for (const c of chunks) h.update(c);
  return h.digest();
}

/**
 * The digest as lowercase hex: what etags and checksums are made of (one-shot where possible). A
 * string is hashed as its UTF-8 bytes; natively Node encodes it, with no TextEncoder pass in
 * JavaScript (SigV4 hashes a canonical request on every request).
 */
export function digestHex(alg: HashAlgorithm, data: string | Uint8Array | readonly Uint8Array[]): string {
  const nodeCrypto = native();
  if (typeof data === 'string')
    return nodeCrypto?.hash ? nodeCrypto.hash(alg, data, 'hex') : digestHex(alg, utf8(data));
  const chunks = isBytes(data) ? [data] : data;
  if (chunks.length === 1 && nodeCrypto?.hash) return nodeCrypto.hash(alg, chunks[0]!, 'hex');
  return toHex(digest(alg, chunks));
}
