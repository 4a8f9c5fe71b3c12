/**
 * Checksums: the put options that ask R2 to verify the body (md5, sha1, sha256, sha384, sha512), and
 * the `Checksums` object results carry.
 */
import { isUntagged, tagClass } from './class-tags.js';
import { fieldTypeError, HASH_LABEL } from './errors.js';
import { isBufferSource, copyBufferSource } from './coerce.js';
import { fromHex, toHex } from '../bytes.js';
import type { HashAlgorithm } from '../hash.js';
import type { R2Checksums, R2StringChecksums } from './types.js';

/** In the order workerd examines the put options. */
const HASH_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha384', 'sha512'] as const satisfies readonly HashAlgorithm[];

const DIGEST_BYTES: Record<HashAlgorithm, number> = { md5: 16, sha1: 20, sha256: 32, sha384: 48, sha512: 64 };

/** Stored digests, lowercase hex: md5 for single-part objects, plus at most one the caller supplied. */
export type StoredChecksums = Readonly<Partial<Record<HashAlgorithm, string>>>;

export interface RequestedChecksum {
  readonly alg: HashAlgorithm;
  /** Lowercase hex, whichever form the caller used. */
  readonly expected: string;
}

/** A hash option after workerd's type conversion: a hex string or a copy of the bytes. */
export interface HashField {
  readonly alg: HashAlgorithm;
  readonly value: string | Uint8Array;
}

/** Type conversion of the five hash fields (the struct-conversion phase: types only). */
export function convertHashFields(options: Record<string, unknown>): HashField[] {
  const out: HashField[] = [];
  for (const alg of HASH_ALGORITHMS) {
    const v = options[alg];
    if (v === undefined) continue;
    if (typeof v === 'string') out.push({ alg, value: v });
    else if (isBufferSource(v)) out.push({ alg, value: copyBufferSource(v) });
    else throw fieldTypeError(alg, 'PutOptions', 'BufferSource or string');
  }
  return out;
}

/**
 * The one integrity hash a put may carry. Each field first checks that no earlier one was given,
 * then its own length and hex, which fixes which error wins when several are wrong.
 */
export function requestedChecksum(fields: readonly HashField[]): RequestedChecksum | undefined {
  let found: RequestedChecksum | undefined;
  for (const { alg, value } of fields) {
    if (found) throw new TypeError('You cannot specify multiple hashing algorithms.');
    const label = HASH_LABEL[alg];
    const bytes = DIGEST_BYTES[alg];
    if (typeof value === 'string') {
      if (value.length !== bytes * 2)
        throw new TypeError(`${label} is ${bytes * 2} hex characters, not ${value.length}`);
      if (!fromHex(value)) throw new TypeError(`Provided ${label} wasn't a valid hex string`);
      found = { alg, expected: value.toLowerCase() };
    } else {
      if (value.byteLength !== bytes) throw new TypeError(`${label} is ${bytes} bytes, not ${value.byteLength}`);
      found = { alg, expected: toHex(value) };
    }
  }
  return found;
}

/** Where a checksums object reads the stored digests from (first read only: the md5 may be computed then). */
export interface ChecksumSource {
  readonly checksums: StoredChecksums;
}

/** Per-result state of a checksums object: its source, the digests once read, the buffers handed out so far. */
interface ChecksumsState {
  readonly source: ChecksumSource;
  stored?: StoredChecksums;
  buffers?: Partial<Record<HashAlgorithm, ArrayBuffer>>;
}

const storedOf = (state: ChecksumsState): StoredChecksums => (state.stored ??= state.source.checksums);

/** Where a checksums object keeps its state: on the proxy's target, hidden by the traps. */
const STATE = Symbol('checksums');
type Target = Checksums & { [STATE]: ChecksumsState };

/** Own keys, in the runtime's order (undefined ones included). */
const KEYS: readonly HashAlgorithm[] = ['sha512', 'sha384', 'sha256', 'sha1', 'md5'];
const isAlgorithm = (p: string | symbol): p is HashAlgorithm => typeof p === 'string' && (KEYS as string[]).includes(p);

/** The ArrayBuffer for one algorithm, made on first read and the same one afterwards. */
function buffer(state: ChecksumsState, alg: HashAlgorithm): ArrayBuffer | undefined {
  const hex = storedOf(state)[alg];
  if (hex === undefined) return undefined;
  const buffers = (state.buffers ??= {});
  return (buffers[alg] ??= fromHex(hex)!.buffer as ArrayBuffer);
}

/**
 * The runtime's checksums are five read-only own properties holding ArrayBuffers. Making five
 * buffers for every result (most never read) dominated the cost of a head, so results get a proxy
 * that shows exactly those properties and makes each buffer on first read.
 */
const lazyReadOnly: ProxyHandler<Target> = {
  ownKeys: () => [...KEYS],
  has: (t, p) => isAlgorithm(p) || (p !== STATE && Reflect.has(t, p)),
  get(t, p, receiver) {
    if (isAlgorithm(p)) return buffer(t[STATE], p);
    if (p === Symbol.toStringTag && isUntagged(receiver as object)) return undefined; // see class-tags.ts
    return Reflect.get(t, p, receiver);
  },
  getOwnPropertyDescriptor(t, p) {
    if (!isAlgorithm(p)) return undefined;
    return { value: buffer(t[STATE], p), writable: false, enumerable: true, configurable: true };
  },
  set(_t, p) {
    throw new TypeError(`Cannot assign to read only property '${String(p)}' of object '#<Checksums>'`);
  },
  defineProperty: () => false,
  deleteProperty: () => false,
};

/** What results expose as `checksums`: caller-owned buffers, so nobody reaches stored digests. */
export class Checksums implements R2Checksums {
  declare readonly sha512?: ArrayBuffer;
  declare readonly sha384?: ArrayBuffer;
  declare readonly sha256?: ArrayBuffer;
  declare readonly sha1?: ArrayBuffer;
  declare readonly md5?: ArrayBuffer;

  /** @internal results make them */
  constructor(source: ChecksumSource) {
    (this as unknown as Target)[STATE] = { source };
    return new Proxy(this as unknown as Target, lazyReadOnly);
  }

  toJSON(): R2StringChecksums {
    const stored = storedOf((this as unknown as Target)[STATE]);
    const out: R2StringChecksums = {};
    for (const alg of HASH_ALGORITHMS) if (stored[alg] !== undefined) out[alg] = stored[alg];
    return out;
  }
}

// Node's console shows a proxy's target; show the digests instead of an empty object.
Object.defineProperty(Checksums.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: Checksums, _depth: number, options: unknown, inspect: (v: unknown, o: unknown) => string) {
    return `Checksums ${inspect({ ...storedOf((this as unknown as Target)[STATE]) }, options)}`;
  },
});

// workerd's toString tag (compatibility date 2024-09-26 on; see class-tags.ts).
tagClass(Checksums, 'Checksums');
