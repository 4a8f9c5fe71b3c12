/**
 * The `x-amz-checksum-*` algorithms R2 accepts (docs r2/api/s3/api,
 * docs/sources/r2-s3.md#checksums): CRC32, CRC32C and CRC64NVME (computed here: no kept library
 * offers them portably, and they are a table and a loop), SHA-1 and SHA-256 (lib/hash). Values
 * travel as base64 of the big-endian digest.
 */
import { digest, type HashAlgorithm } from '../hash.js';

export type S3ChecksumAlgorithm = 'crc32' | 'crc32c' | 'crc64nvme' | 'sha1' | 'sha256';
export const S3_CHECKSUMS: readonly S3ChecksumAlgorithm[] = ['crc32', 'crc32c', 'crc64nvme', 'sha1', 'sha256'];

function crc32Table(poly: number): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? poly ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}

let crcTables: { crc32: Uint32Array; crc32c: Uint32Array } | undefined;

function crc32Of(table: Uint32Array, chunks: readonly Uint8Array[]): Uint8Array {
  let c = 0xffffffff;
  for (const chunk of chunks) for (let i = 0; i < chunk.length; i++) c = table[(c ^ chunk[i]!) & 0xff]! ^ (c >>> 8);
  c = (c ^ 0xffffffff) >>> 0;
  return new Uint8Array([c >>> 24, (c >>> 16) & 0xff, (c >>> 8) & 0xff, c & 0xff]);
}

let crc64Table: BigUint64Array | undefined;
const CRC64_NVME_POLY = 0x9a6c9329ac4bc9b5n; // reflected

function crc64nvme(chunks: readonly Uint8Array[]): Uint8Array {
  if (!crc64Table) {
    crc64Table = new BigUint64Array(256);
    for (let n = 0; n < 256; n++) {
      let c = BigInt(n);
      for (let k = 0; k < 8; k++) c = c & 1n ? CRC64_NVME_POLY ^ (c >> 1n) : c >> 1n;
      crc64Table[n] = c;
    }
  }
  let c = 0xffffffffffffffffn;
  for (const chunk of chunks)
    for (let i = 0; i < chunk.length; i++) c = crc64Table[Number((c ^ BigInt(chunk[i]!)) & 0xffn)]! ^ (c >> 8n);
  c ^= 0xffffffffffffffffn;
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(c & 0xffn);
    c >>= 8n;
  }
  return out;
}

export function checksumBytes(alg: S3ChecksumAlgorithm, chunks: readonly Uint8Array[]): Uint8Array {
  switch (alg) {
    case 'crc32':
    case 'crc32c':
      crcTables ??= { crc32: crc32Table(0xedb88320), crc32c: crc32Table(0x82f63b78) };
      return crc32Of(crcTables[alg], chunks);
    case 'crc64nvme':
      return crc64nvme(chunks);
    default:
      return digest(alg as HashAlgorithm, chunks);
  }
}

// Base64 is shared (lib/bytes.ts); S3's checksum headers read and write it from here too.
export { fromBase64, toBase64 } from '../bytes.js';

export const DIGEST_LENGTH: Record<S3ChecksumAlgorithm, number> = {
  crc32: 4,
  crc32c: 4,
  crc64nvme: 8,
  sha1: 20,
  sha256: 32,
};
