/**
 * Checksums: the put options that ask R2 to verify the body (md5, sha1, sha256, sha384, sha512), and
 * the `Checksums` object results carry.
 */
import { fieldTypeError, HASH_LABEL } from './errors.js';
import { isBufferSource, copyBufferSource } from './coerce.js';
import { fromHex, toHex } from '../bytes.js';
import type { HashAlgorithm } from '../hash.js';
import type { R2Checksums, R2StringChecksums } from './types.js';

/** In the order workerd examines the put options. */
export const HASH_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha384', 'sha512'] as const satisfies readonly HashAlgorithm[];

const DIGEST_BYTES: Record<HashAlgorithm, number> = { md5: 16, sha1: 20, sha256: 32, sha384: 48, sha512: 64 };

/** Stored digests: md5 for single-part objects, plus at most one algorithm the caller supplied. */
export type StoredChecksums = Readonly<Partial<Record<HashAlgorithm, Uint8Array>>>;

export interface RequestedChecksum {
  readonly alg: HashAlgorithm;
  readonly expected: Uint8Array;
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
      if (value.length !== bytes * 2) throw new TypeError(`${label} is ${bytes * 2} hex characters, not ${value.length}`);
      const decoded = fromHex(value);
      if (!decoded) throw new TypeError(`Provided ${label} wasn't a valid hex string`);
      found = { alg, expected: decoded };
    } else {
      if (value.byteLength !== bytes) throw new TypeError(`${label} is ${bytes} bytes, not ${value.byteLength}`);
      found = { alg, expected: value };
    }
  }
  return found;
}

const digestBuffer = (d: Uint8Array | undefined) => (d ? (d.slice().buffer as ArrayBuffer) : undefined);

/** What results expose as `checksums`: fresh ArrayBuffers, so callers cannot reach stored digests. */
export class Checksums implements R2Checksums {
  readonly sha512?: ArrayBuffer;
  readonly sha384?: ArrayBuffer;
  readonly sha256?: ArrayBuffer;
  readonly sha1?: ArrayBuffer;
  readonly md5?: ArrayBuffer;

  constructor(stored: StoredChecksums) {
    // Own properties in the runtime's order, undefined ones included.
    this.sha512 = digestBuffer(stored.sha512);
    this.sha384 = digestBuffer(stored.sha384);
    this.sha256 = digestBuffer(stored.sha256);
    this.sha1 = digestBuffer(stored.sha1);
    this.md5 = digestBuffer(stored.md5);
  }

  toJSON(): R2StringChecksums {
    const out: R2StringChecksums = {};
    for (const alg of HASH_ALGORITHMS) {
      const b = this[alg];
      if (b !== undefined) out[alg] = toHex(new Uint8Array(b));
    }
    return out;
  }
}
