/**
 * `toHaveObject` and its plain twins `assertObject`, `assertNoObject`: the check behind them, what
 * an expectation may name, and the reader through which a double that holds objects (a Bucket:
 * bucket-support.ts; an S3Api: lib/s3/s3-support.ts) says where a path's object is. Beside the bucket,
 * over the product-neutral test support (lib/support/matchers.ts), which names no product.
 */
import { concat } from '../bytes.js';
import { editDistance } from '../edit-distance.js';
import { enforce } from '../support/assertions.js';
import { bytesOf, partialMatch, show, type LoggedCall } from '../support/call-log.js';
import type { LogReader, TestDouble } from '../support/double.js';
import { pick, type CheckResult } from '../support/matchers.js';
import { describeValue as describe, doubleOf } from '../support/registry.js';
import type { BucketCall } from './bucket-support.js';
import type { BucketLayer } from './layer.js';
import { HeadResult, WHOLE_OBJECT } from './results.js';
import type { StoredObject } from './stored.js';

/** What `toHaveObject` may require of a stored object; every field is optional and checked if given. */
export interface ObjectExpectation {
  /** The whole body: a string (compared as UTF-8) or bytes. */
  body?: string | ArrayBuffer | ArrayBufferView | RegExp;
  size?: number;
  /** Fields the object's httpMetadata must have (others may be there too). */
  httpMetadata?: Record<string, unknown>;
  /** Fields the object's customMetadata must have (others may be there too). */
  customMetadata?: Record<string, string | RegExp>;
  storageClass?: string;
  etag?: string;
  /** Checksums the object must carry, as lowercase hex (`{ md5: '…', sha256: '…' }`). */
  checksums?: Record<string, string>;
}

/**
 * Where `toHaveObject` finds an object: the bucket a path names (a Bucket: itself, the path being
 * the key; an S3Api: the bucket served under the path's first segment), the key in it, and which
 * of the double's log entries are calls on that bucket (for the failure message).
 */
export interface ObjectPlace {
  readonly layer: BucketLayer;
  readonly key: string;
  /** How a message names the bucket: "the bucket", `bucket "docs"`. */
  readonly label: string;
  /** Whether an entry of the double's log is a call on this bucket. */
  readonly onBucket: (entry: LoggedCall) => boolean;
}

/**
 * What `toHaveObject` reads of a double that holds objects, offered among its `readers`
 * (lib/support/double.ts). A class, so the check finds it by `instanceof` among readers that test
 * support keeps opaque: no cast, and a double without one is told apart at run time.
 */
export class ObjectReader {
  /** `locate` gives the place `path` names; it throws a TypeError saying why when it names none. */
  constructor(readonly locate: (path: string) => ObjectPlace) {}
}

// ignoreBOM spelled out: workers-types (a user's tsconfig, spec/types) requires every field.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function bodyOf(o: StoredObject): Uint8Array {
  let held = 0;
  for (const c of o.chunks) held += c.byteLength;
  // On IndexedDbStorage the bytes stay in the database, out of reach of a synchronous check.
  if (held !== o.size)
    throw new TypeError(
      'toHaveObject: `body` can be checked on the memory storage only; read the object with get() instead',
    );
  return concat(o.chunks as Uint8Array[], o.size);
}

function asText(bytes: Uint8Array): string | Uint8Array {
  try {
    return decoder.decode(bytes);
  } catch {
    return bytes;
  }
}

/** The double behind `received` and the place `path` names in it (a Bucket: the key; an S3Api: `bucket/key`). */
function objectPlace(received: unknown, path: string, matcher: string): { double: TestDouble; place: ObjectPlace } {
  const double = doubleOf(received);
  const reader = double?.readers?.find((r) => r instanceof ObjectReader);
  if (!double || !reader)
    throw new TypeError(`${matcher}: expected a Bucket or an S3Api from edge-doubles, got ${describe(received)}`);
  return { double, place: reader.locate(path) };
}

/** Up to 5 stored keys nearest to `key`: those sharing its longest prefix, closest in edits first. */
function nearestKeys(b: BucketLayer, key: string): string[] {
  const model = b.model;
  const found = new Set<string>();
  for (let n = key.length; n >= 0 && found.size < 20; n--) {
    // Keys a call would still find (an expired object is no near key).
    for (const o of model.list({ limit: 20, prefix: key.slice(0, n) }).objects) if (b.observe(o.key)) found.add(o.key);
    if (n > 0 && found.size >= 5) break;
  }
  return [...found].sort((a, c) => editDistance(a, key) - editDistance(c, key)).slice(0, 5);
}

/** The object as `expected` looks at it: only the fields it names. */
function objectView(o: StoredObject, expected: ObjectExpectation): Record<string, unknown> {
  const r = new HeadResult(o, WHOLE_OBJECT);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(expected) as (keyof ObjectExpectation)[]) {
    switch (k) {
      case 'body': {
        const bytes = bodyOf(o);
        out.body = typeof expected.body === 'string' || expected.body instanceof RegExp ? asText(bytes) : bytes;
        break;
      }
      case 'size':
        out.size = r.size;
        break;
      case 'httpMetadata':
        out.httpMetadata = pick(r.httpMetadata, expected.httpMetadata);
        break;
      case 'customMetadata':
        out.customMetadata = pick(r.customMetadata, expected.customMetadata);
        break;
      case 'storageClass':
        out.storageClass = r.storageClass;
        break;
      case 'etag':
        out.etag = r.etag;
        break;
      case 'checksums':
        out.checksums = pick(r.checksums.toJSON() as Record<string, unknown>, expected.checksums);
        break;
    }
  }
  return out;
}

function expectedView(expected: ObjectExpectation): Record<string, unknown> {
  const out: Record<string, unknown> = { ...expected };
  if (expected.body !== undefined && typeof expected.body !== 'string' && !(expected.body instanceof RegExp)) {
    out.body = bytesOf(expected.body);
  }
  return out;
}

/** The double's last calls on the place's key, as a table (its log read through the one interface). */
function recentCalls(double: TestDouble, { key, onBucket }: ObjectPlace): string {
  const log = double.log as LogReader<BucketCall>;
  if (!log.recording && log.length === 0) return '';
  const onKey = (e: BucketCall) => onBucket(e) && (e.key === key || (Array.isArray(e.key) && e.key.includes(key)));
  const calls = log.filter(onKey);
  if (calls.length === 0) return `\nNo call on "${key}" in the call log.`;
  // Entries are built afresh at each read: told apart by their place in their bucket's log.
  const shown = new Set(calls.slice(-5).map((c) => c.seq));
  return `\nCalls on "${key}" (last ${shown.size}):\n${log.table((e) => onBucket(e) && shown.has(e.seq))}`;
}

/** An object exists at `path` (with the fields given): a Bucket's key, or an S3Api's `bucket/key`. */
export function checkObject(received: unknown, path: string, expected?: ObjectExpectation, extra = 0): CheckResult {
  if (extra > 0) throw new TypeError('toHaveObject(key, expected?) takes at most 2 arguments');
  if (typeof path !== 'string') throw new TypeError(`toHaveObject: the key must be a string, got ${describe(path)}`);
  const { double, place } = objectPlace(received, path, 'toHaveObject');
  const { layer: b, key, label } = place;
  // As a call finds it: the lifecycle rules the clock has made due applied (layer.ts `observe`).
  const o = b.observe(key);
  if (!o) {
    const near = nearestKeys(b, key);
    return {
      pass: false,
      message: () =>
        `expected ${label} to have an object at "${key}", but there is none.\n` +
        (near.length
          ? `Nearest keys: ${near.map((k) => JSON.stringify(k)).join(', ')}`
          : `${label[0]!.toUpperCase()}${label.slice(1)} is empty.`) +
        recentCalls(double, place),
    };
  }
  if (!expected || Object.keys(expected).length === 0) {
    return {
      pass: true,
      message: () => `expected ${label} not to have an object at "${key}", but it has one (${o.size} bytes)`,
    };
  }
  const actual = objectView(o, expected);
  const want = expectedView(expected);
  const pass =
    partialMatch(actual, want) &&
    (expected.customMetadata === undefined || partialMatch(actual.customMetadata, expected.customMetadata));
  return {
    pass,
    actual,
    expected: want,
    message: () =>
      pass
        ? `expected the object at "${path}" not to match ${show(want)}, but it does`
        : `expected the object at "${path}" to match the expectation; it differs.${recentCalls(double, place)}`,
  };
}

/** Throws unless the bucket has an object at `key` (with the fields given); an S3Api takes `'<bucket>/<key>'`. */
export function assertObject(bucket: unknown, key: string, expected?: ObjectExpectation): void {
  enforce(checkObject(bucket, key, expected, arguments.length - 3 > 0 ? 1 : 0), false, 'assertObject');
}

/** Throws if the bucket has an object at `key` (an S3Api: `'<bucket>/<key>'`). */
export function assertNoObject(bucket: unknown, key: string): void {
  enforce(checkObject(bucket, key, undefined, arguments.length > 2 ? 1 : 0), true, 'assertNoObject');
}
