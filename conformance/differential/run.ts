/**
 * Applying one generated op to one implementation, and describing what happened as plain data.
 *
 * Each implementation has its own `Side`: the bucket, the upload handles its ops returned, and the
 * identifiers it minted (versions, upload ids, part etags, cursors), so that symbolic references in
 * an op resolve on that implementation alone. The outcome is data with raw identifiers; compare.ts
 * turns what legitimately differs into tokens (its one table) and compares the rest exactly.
 */
import { md5 } from '@noble/hashes/legacy.js';
import type { R2BucketLike, R2MultipartUploadLike, R2ObjectLike } from '../../lib/bucket/types.js';
import type { Op, Read, Spec, Special } from './generate.js';

export interface Side {
  readonly name: 'workerd' | 'double';
  readonly bucket: R2BucketLike;
  /** op index → the upload handle that op returned. */
  readonly handles: Map<number, R2MultipartUploadLike>;
  /** op index → what an uploadPart op resolved to. */
  readonly parts: Map<number, { partNumber: number; etag: string }>;
  /** op index → the cursor a list op returned (undefined: none). */
  readonly cursors: Map<number, string | undefined>;
  /** Identifiers this implementation minted → the op that minted them. */
  readonly versions: Map<string, { op: number; uploaded: number }>;
  readonly uploadIds: Map<string, number>;
  readonly partEtags: Map<string, number>;
}

export function newSide(name: Side['name'], bucket: R2BucketLike): Side {
  return {
    name,
    bucket,
    handles: new Map(),
    parts: new Map(),
    cursors: new Map(),
    versions: new Map(),
    uploadIds: new Map(),
    partEtags: new Map(),
  };
}

// ---- building arguments ----------------------------------------------------------------------------

const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16)) as Uint8Array<ArrayBuffer>;
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const g = globalThis as unknown as {
  FixedLengthStream?: new (n: number) => TransformStream<Uint8Array, Uint8Array>;
};

/** A stale or missing reference resolves to this, the same on both sides. */
const MISSING_ETAG = '0123456789abcdef0123456789abcdef';

async function quietHead(side: Side, key: string): Promise<R2ObjectLike | null> {
  try {
    return await side.bucket.head(key);
  } catch {
    return null;
  }
}

function bufferOf(kind: string, bytes: Uint8Array, pad: number): ArrayBuffer | ArrayBufferView {
  const backing = new Uint8Array(bytes.length + 2 * pad);
  backing.fill(0xee);
  backing.set(bytes, pad);
  const buf = backing.buffer;
  switch (kind) {
    case 'ArrayBuffer':
      return buf.slice(pad, pad + bytes.length);
    case 'Uint8Array':
      return new Uint8Array(buf, pad, bytes.length);
    case 'Uint8ClampedArray':
      return new Uint8ClampedArray(buf, pad, bytes.length);
    case 'Int16Array':
      return new Int16Array(buf, pad, bytes.length / 2);
    case 'Float64Array':
      return new Float64Array(buf.slice(pad, pad + bytes.length)); // alignment: a copy
    case 'DataView':
      return new DataView(buf, pad, bytes.length);
    default:
      throw new Error(`unknown buffer kind ${kind}`);
  }
}

function streamOf(kind: string, bytes: Uint8Array<ArrayBuffer>): ReadableStream | null {
  switch (kind) {
    case 'response':
      return new Response(bytes).body;
    case 'request':
      return new Request('http://fuzz.test/', { method: 'POST', body: bytes }).body;
    case 'blob':
      return new Blob([bytes]).stream();
    case 'plain':
      return new ReadableStream({
        start(c) {
          c.enqueue(bytes);
          c.close();
        },
      });
    case 'bytes':
      // A JS-built byte stream: its length is unknown, so workerd refuses it (Node's probe passes it).
      return new ReadableStream({
        type: 'bytes',
        start(c) {
          c.enqueue(bytes.slice());
          c.close();
        },
      });
    case 'fixed': {
      if (!g.FixedLengthStream) throw new Error('no FixedLengthStream here');
      const { readable, writable } = new g.FixedLengthStream(bytes.length);
      const w = writable.getWriter();
      void w
        .write(bytes)
        .then(() => w.close())
        .catch(() => {});
      return readable;
    }
    default:
      throw new Error(`unknown stream kind ${kind}`);
  }
}

function sized(n: number, fill: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < 4096 && i < n; i++) out[i] = (i * 31 + fill) & 0xff;
  for (let i = 4096; i < n; i *= 2) out.copyWithin(i, 0, Math.min(i, n - i));
  return out;
}

async function special(s: Special, side: Side): Promise<unknown> {
  switch (s.$$) {
    case 'undefined':
      return undefined;
    case 'symbol':
      return Symbol('fuzz');
    case 'bigint':
      return BigInt(s.v);
    case 'number':
      return Number(s.v);
    case 'function':
      return () => 'fn';
    case 'map':
      return new Map(s.entries);
    case 'tostring': {
      const v = s.v;
      return { toString: () => v };
    }
    case 'buffer':
      return bufferOf(s.kind, fromHex(s.hex), s.pad);
    case 'sized':
      return sized(s.n, s.fill);
    case 'blob':
      return new Blob([fromHex(s.hex)], { type: s.type });
    case 'stream':
      return streamOf(s.kind, fromHex(s.hex));
    case 'bodyOf': {
      try {
        const got = await side.bucket.get(s.key, s.range ? { range: s.range } : undefined);
        return got && 'body' in got ? (got as { body: ReadableStream }).body : null;
      } catch {
        return null;
      }
    }
    case 'headers': {
      const h = new Headers();
      for (const [k, v] of s.entries) h.append(k, String(await build(v, side)));
      return h;
    }
    case 'date':
      return new Date(s.ms === 'invalid' ? NaN : s.ms);
    case 'uploaded': {
      const o = await quietHead(side, s.key);
      // A missing object: every time condition is decided without its value, so any will do.
      let ms = o ? o.uploaded.getTime() : 1_700_000_000_000;
      if (s.seconds) ms = Math.floor(ms / 1000) * 1000;
      ms += s.delta;
      switch (s.form) {
        case 'date':
          return new Date(ms);
        case 'number':
          return ms;
        case 'http':
          return new Date(ms).toUTCString();
        case 'iso':
          return new Date(ms).toISOString();
      }
      break;
    }
    case 'size': {
      const o = await quietHead(side, s.key);
      const n = Math.max(0, (o ? o.size : 0) + s.delta);
      return s.template === undefined ? n : s.template.replaceAll('{s}', String(n));
    }
    case 'etag': {
      const o = await quietHead(side, s.key);
      const e = o ? o.etag : MISSING_ETAG;
      return s.template.replaceAll('{e}', e).replaceAll('{E}', e.toUpperCase());
    }
    case 'part': {
      const p = side.parts.get(s.op);
      const etag = s.etag !== undefined ? await build(s.etag, side) : (p?.etag ?? MISSING_ETAG);
      return {
        partNumber: s.partNumber !== undefined ? await build(s.partNumber, side) : (p?.partNumber ?? 1),
        etag:
          s.template !== undefined && typeof etag === 'string'
            ? s.template.replaceAll('{e}', etag).replaceAll('{E}', etag.toUpperCase())
            : etag,
      };
    }
    case 'partEtag':
      return side.parts.get(s.op)?.etag ?? MISSING_ETAG;
    case 'cursor':
      return side.cursors.get(s.op);
    case 'uploadId':
      return side.handles.get(s.op)?.uploadId ?? 'no-such-upload';
  }
}

/** Builds a spec into a real argument on one side. */
async function build(spec: Spec, side: Side): Promise<unknown> {
  if (spec === null || typeof spec !== 'object') return spec;
  if (Array.isArray(spec)) {
    const out: unknown[] = [];
    for (const s of spec) out.push(await build(s, side));
    return out;
  }
  if ('$$' in spec && typeof spec.$$ === 'string') return special(spec as Special, side);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec as Record<string, Spec>)) out[k] = await build(v, side);
  return out;
}

// ---- describing outcomes ---------------------------------------------------------------------------

/** Plain data: what compare.ts compares (after its table rewrites what legitimately differs). */
export type Data = null | undefined | boolean | number | string | Data[] | { [k: string]: Data };

export interface Outcome {
  /** How the call ended: a synchronous throw, a rejection, a resolution, or a synchronous return. */
  how: 'threw' | 'rejected' | 'resolved' | 'returned' | 'no-handle';
  value?: Data;
}

function describeError(e: unknown): Data {
  if (!(e instanceof Error)) return { thrown: typeof e, text: String(e) };
  return {
    class: e.constructor.name,
    message: e.message,
    props: Object.getOwnPropertyNames(e)
      .filter((p) => p !== 'stack')
      .sort(),
  };
}

const BIG = 512;

function bytesData(b: Uint8Array): Data {
  return b.length <= BIG ? { len: b.length, hex: toHex(b) } : { len: b.length, md5: toHex(md5(b)) };
}

async function settle(f: () => Promise<Data>): Promise<Data> {
  try {
    return await f();
  } catch (e) {
    return { error: describeError(e) };
  }
}

async function readBody(o: Record<string, unknown>, read: Read): Promise<Data> {
  const body = o as unknown as {
    body: ReadableStream<Uint8Array>;
    bodyUsed: boolean;
    text(): Promise<string>;
    arrayBuffer(): Promise<ArrayBuffer>;
    bytes(): Promise<Uint8Array>;
    blob(): Promise<Blob>;
    json(): Promise<unknown>;
  };
  const before = body.bodyUsed;
  const got = await settle(async (): Promise<Data> => {
    switch (read) {
      case 'none':
        return null;
      case 'text': {
        const t = await body.text();
        return t.length <= BIG ? { text: t } : { textLength: t.length };
      }
      case 'arrayBuffer': {
        const b = await body.arrayBuffer();
        return { class: b.constructor.name, bytes: bytesData(new Uint8Array(b)) };
      }
      case 'bytes': {
        const b = await body.bytes();
        return { class: b.constructor.name, bytes: bytesData(b) };
      }
      case 'blob': {
        const b = await body.blob();
        return { class: b.constructor.name, type: b.type, bytes: bytesData(new Uint8Array(await b.arrayBuffer())) };
      }
      case 'json':
        return { json: JSON.stringify(await body.json()) };
      case 'stream': {
        const reader = body.body.getReader();
        const chunks: Uint8Array[] = [];
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
        }
        const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of chunks) {
          all.set(c, at);
          at += c.length;
        }
        return { bytes: bytesData(all), sameStream: body.body === body.body };
      }
      case 'twice': {
        const first = await body.text();
        const second = await settle(async () => body.text());
        return { first: first.length <= BIG ? first : first.length, second };
      }
    }
  });
  return { bodyUsedBefore: before, read: got, bodyUsedAfter: body.bodyUsed };
}

function httpData(h: unknown): Data {
  if (h === undefined || h === null || typeof h !== 'object') return h === undefined ? undefined : String(h);
  const out: Record<string, Data> = {};
  for (const [k, v] of Object.entries(h)) {
    out[k] =
      v instanceof Date
        ? { date: Number.isNaN(v.getTime()) ? 'invalid' : v.getTime() }
        : typeof v === 'string'
          ? v
          : String(v);
  }
  return out;
}

function writeHttp(o: R2ObjectLike): Data {
  const h = new Headers({ 'content-type': 'old/type', 'x-keep': '1' });
  try {
    const ret = o.writeHttpMetadata(h) as unknown;
    return { returned: ret === undefined ? 'undefined' : String(ret), headers: [...h].map(([k, v]) => `${k}: ${v}`) };
  } catch (e) {
    return { error: describeError(e) };
  }
}

/** An R2Object / R2ObjectBody, as data (raw version and uploaded; compare.ts tokenises them). */
async function objectData(o: R2ObjectLike, read: Read | undefined): Promise<Data> {
  const rec = o as unknown as Record<string, unknown>;
  const checksums = o.checksums as unknown as Record<string, unknown> & { toJSON(): Record<string, string> };
  const out: Record<string, Data> = {
    kind: 'object',
    class: o.constructor.name,
    keys: Object.keys(o),
    key: o.key,
    version: o.version,
    size: o.size,
    etag: o.etag,
    httpEtag: o.httpEtag,
    uploaded: o.uploaded instanceof Date ? o.uploaded.getTime() : `not a Date: ${String(o.uploaded)}`,
    checksums: {
      class: checksums.constructor.name,
      keys: Object.keys(checksums),
      json: checksums.toJSON(),
      buffers: Object.keys(checksums).map((k) => {
        const v = checksums[k];
        return v === undefined ? 'undefined' : v instanceof ArrayBuffer ? `ArrayBuffer(${v.byteLength})` : String(v);
      }),
    },
    httpMetadata: httpData(o.httpMetadata),
    customMetadata:
      o.customMetadata === undefined ? undefined : Object.entries(o.customMetadata).map(([k, v]) => [k, v]),
    range: o.range === undefined ? undefined : (JSON.parse(JSON.stringify(o.range)) as Data),
    storageClass: o.storageClass,
    ssecKeyMd5: o.ssecKeyMd5,
    hasBody: 'body' in rec,
    writeHttpMetadata: writeHttp(o),
  };
  if ('body' in rec && read !== undefined) out.body = await readBody(rec, read);
  return out;
}

async function resultData(op: Op, index: number, side: Side, v: unknown): Promise<Data> {
  if (v === null || v === undefined) return v === null ? null : undefined;
  switch (op.method) {
    case 'head':
    case 'get':
    case 'put':
    case 'complete': {
      const o = v as R2ObjectLike;
      // A write mints a version: remember which op made it, and when it says it was uploaded.
      if ((op.method === 'put' || op.method === 'complete') && !side.versions.has(o.version)) {
        side.versions.set(o.version, { op: index, uploaded: o.uploaded.getTime() });
      }
      return objectData(o, op.read);
    }
    case 'list': {
      const page = v as { objects: R2ObjectLike[]; truncated: boolean; cursor?: string; delimitedPrefixes: string[] };
      side.cursors.set(index, page.cursor);
      const objects: Data[] = [];
      for (const o of page.objects) objects.push(await objectData(o, undefined));
      return {
        kind: 'list',
        keys: Object.keys(page),
        truncated: page.truncated,
        cursor: page.cursor,
        objects,
        delimitedPrefixes: page.delimitedPrefixes,
      };
    }
    case 'createMultipartUpload':
    case 'resumeMultipartUpload': {
      const h = v as R2MultipartUploadLike;
      side.handles.set(index, h);
      if (op.method === 'createMultipartUpload') side.uploadIds.set(h.uploadId, index);
      return { kind: 'upload', class: h.constructor.name, keys: Object.keys(h), key: h.key, uploadId: h.uploadId };
    }
    case 'uploadPart': {
      const p = v as { partNumber: number; etag: string };
      side.parts.set(index, p);
      side.partEtags.set(p.etag, index);
      return { kind: 'part', keys: Object.keys(p), partNumber: p.partNumber, etag: p.etag };
    }
    default:
      return { unexpected: String(v) };
  }
}

/** Runs op `index` on one side. */
export async function run(op: Op, index: number, side: Side): Promise<Outcome> {
  const target: unknown = op.target === 'bucket' ? side.bucket : side.handles.get(op.target);
  if (!target) return { how: 'no-handle' };
  const args: unknown[] = [];
  for (const a of op.args) args.push(await build(a, side));
  let returned: unknown;
  try {
    returned = (target as Record<string, (...a: unknown[]) => unknown>)[op.method]!(...args);
  } catch (e) {
    return { how: 'threw', value: describeError(e) };
  }
  if (!(returned instanceof Promise)) return { how: 'returned', value: await resultData(op, index, side, returned) };
  let value: unknown;
  try {
    value = await returned;
  } catch (e) {
    return { how: 'rejected', value: describeError(e) };
  }
  return { how: 'resolved', value: await resultData(op, index, side, value) };
}

/** Aborts every upload a side started (so big parts do not pile up in the simulator). */
export async function abortAll(side: Side): Promise<void> {
  for (const h of side.handles.values()) {
    try {
      await h.abort();
    } catch {
      /* already gone, or never valid */
    }
  }
}
