/**
 * The checks behind the Vitest matchers (lib/vitest.ts) and the plain assertions (assertions.ts):
 * written once, each returns `{ pass, message, actual, expected }`. `actual` is what was there,
 * cut to the fields the expectation names, so a runner's diff shows only what matters.
 *
 * They find a double through the one registry (registry.ts, double.ts), and read its state
 * directly (synchronously: no `await` needed), never through calls that would show up in the call
 * log or meet a fault.
 */
import { concat } from '../bytes.js';
import { editDistance } from '../edit-distance.js';
import type { StoredObject } from '../bucket/stored.js';
import type { DnsRecord } from '../dns/types.js';
import type { BucketLayer } from '../bucket/layer.js';
import type { BucketCall, BucketCallQuery } from '../bucket/bucket-support.js';
import { bytesOf, partialMatch, show, type LoggedCall } from './call-log.js';
import type { ApiRequestQuery } from '../api/support.js';
import type { LogReader, ObjectPlace, TestDouble } from './double.js';
import { describeValue as describe, doubleOf } from './registry.js';
import type { S3CallQuery } from '../s3/s3-support.js';
import type { QueueCallQuery } from './queue-support.js';

export interface CheckResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

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

/** A field's expected value: a string may be a RegExp to test; objects are matched partly, arrays element by element. */
type FieldExpectation<T> = T extends string
  ? T | RegExp
  : T extends readonly (infer E)[]
    ? readonly FieldExpectation<E>[]
    : T extends object
      ? { [K in keyof T]?: FieldExpectation<T[K]> }
      : T;

/**
 * What `toHaveDnsRecord` and `assertDnsRecord` may require of a record: any of DnsRecord's fields,
 * and only those (a misspelt field is a type error, not a check that never passes). Objects (`meta`,
 * `data`, `settings`) need only the fields named. Vitest's asymmetric matchers fit anywhere.
 */
export type DnsRecordExpectation = { [K in keyof DnsRecord]?: FieldExpectation<DnsRecord[K]> };

/** `toHaveReceived`'s query: the double's call fields, plus how many matching calls there must be. */
export type ReceivedQuery = (BucketCallQuery | ApiRequestQuery | S3CallQuery | QueueCallQuery) & { times?: number };

const decoder = new TextDecoder('utf-8', { fatal: true });

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
  if (!double?.objects)
    throw new TypeError(`${matcher}: expected a Bucket or an S3Api from edge-doubles, got ${describe(received)}`);
  return { double, place: double.objects.locate(path) };
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
function objectView(o: StoredObject, expected: ObjectExpectation, place: ObjectPlace): Record<string, unknown> {
  const r = place.present(o);
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

/** The fields of `actual` that `want` names (and any extra ones, when all named ones are missing). */
function pick(actual: object | undefined, want: object | undefined): unknown {
  if (!actual || !want) return actual;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(want)) if (k in actual) out[k] = (actual as Record<string, unknown>)[k];
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
  const actual = objectView(o, expected, place);
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

/** The double received a matching call (bucket) or request (DnsApi), `times` times if given, else at least once. */
export function checkReceived(received: unknown, query: ReceivedQuery = {}, extra = 0): CheckResult {
  if (extra > 0) throw new TypeError('toHaveReceived(query?) takes at most 1 argument');
  if (query === null || typeof query !== 'object')
    throw new TypeError(`toHaveReceived: the query must be an object, got ${describe(query)}`);
  const double = doubleOf(received);
  if (!double)
    throw new TypeError(
      `toHaveReceived: expected a Bucket, a DnsApi or an S3Api from edge-doubles, got ${describe(received)}`,
    );
  const log = double.log as LogReader<LoggedCall, ReceivedQuery>;
  const what = double.entry;
  if (!log.recording && log.length === 0) {
    throw new Error(
      `toHaveReceived: the ${double.label}'s call log is off, so no ${what} can be checked. ${double.logHint}`,
    );
  }
  const { times, ...fields } = query;
  const matched = log.filter(fields as ReceivedQuery);
  const pass = times === undefined ? matched.length > 0 : matched.length === times;
  const label = Object.keys(fields).length ? `a ${what} matching ${show(fields)}` : `any ${what}`;
  const count = times === undefined ? '' : ` ${times} time${times === 1 ? '' : 's'}`;
  const listing = `\n${what === 'call' ? 'Calls' : 'Requests'} made:\n${log.table()}`;
  if (times !== undefined && matched.length !== times && matched.length > 0) {
    return {
      pass,
      actual: matched.length,
      expected: times,
      message: () => `expected ${label}${count}, got ${matched.length}.${listing}`,
    };
  }
  // The nearest entry (the last of the same operation or method, else the last), cut to the query's fields.
  const sameKind = log.filter((e) => double.sameKind(e, fields));
  const nearest = sameKind[sameKind.length - 1] ?? log.last();
  return {
    pass,
    actual: nearest && pick(nearest, fields),
    expected: fields,
    message: () =>
      pass
        ? `expected no ${label.replace(/^(a|any) /, '')}${count}, got ${matched.length}.${listing}`
        : `expected ${label}${count}, got none.${listing}`,
  };
}

/** A zone (id or name) of the DnsApi has a record with the given fields (as the API shows them). */
export function checkDnsRecord(received: unknown, zone: string, fields: DnsRecordExpectation, extra = 0): CheckResult {
  if (extra > 0) throw new TypeError('toHaveDnsRecord(zone, fields) takes exactly 2 arguments');
  if (fields === null || typeof fields !== 'object')
    throw new TypeError(`toHaveDnsRecord: fields must be an object, got ${describe(fields)}`);
  const d = doubleOf(received)?.zones;
  if (!d) throw new TypeError(`toHaveDnsRecord: expected a DnsApi from edge-doubles, got ${describe(received)}`);
  const z = d.zone(zone);
  if (!z) throw new Error(`toHaveDnsRecord: the DnsApi has no zone ${JSON.stringify(zone)}`);
  const want = { ...fields };
  // A relative name means a name in the zone, as the API reads one.
  if (typeof want.name === 'string' && want.name !== z.name && !want.name.endsWith(`.${z.name}`))
    want.name = want.name === '@' ? z.name : `${want.name}.${z.name}`;
  const records = d.records(z);
  const pass = records.some((r) => partialMatch(r, want));
  const sameName = records.filter((r) => r.name === want.name);
  const nearest =
    sameName.find((r) => r.type === want.type) ?? sameName[0] ?? records.find((r) => r.type === want.type);
  return {
    pass,
    actual: nearest && pick(nearest, want),
    expected: want,
    message: () =>
      pass
        ? `expected zone ${z.name} to have no record matching ${show(want)}, but it has one`
        : `expected zone ${z.name} to have a record matching ${show(want)}; ` +
          (nearest
            ? 'the nearest one differs.'
            : `it has none of that name${want.type ? ' or type' : ''} (${records.length} records).`) +
          (sameName.length > 1
            ? `\nRecords at ${want.name}: ${sameName.map((r) => `${r.type} ${r.content}`).join('; ')}`
            : ''),
  };
}
