/**
 * The S3Api as a test double (double.ts). It holds no objects of its own, only a view over buckets,
 * so its test support is read through the buckets it serves:
 *
 * - snapshot: the set of buckets it serves (by name) and each one's state (its own snapshot, O(1),
 *   which holds its configuration: the CORS rules); restore brings both back (buckets added since are no
 *   longer served, buckets deleted since are served again, each holding what it held), and only into
 *   the S3Api that took it (it names that S3Api's buckets). O(buckets), not O(objects).
 * - reset: empties every bucket it serves (each bucket's own reset: objects, uploads, faults, log);
 *   the buckets stay served and their CORS rules stay, as a DnsApi's zones stay.
 * - the call log: no log of its own. S3 requests that reach a bucket are logged on that bucket with
 *   `surface: 's3'` (lib/bucket/layer.ts); the S3Api's log is those entries from every bucket it
 *   serves, each with the name it is served under (`bucket`), in time order. Requests refused before
 *   a bucket is reached (signature, NoSuchBucket, CreateBucket) are in no log.
 * - faults: none of its own; a bucket's rules (`bucket.faults`) catch its S3 calls too (the
 *   decision and its reasons: lib/s3/api.ts, "Faults").
 * - objects (`toHaveObject`): `'<bucket>/<key>'`, the bucket by the name it is served under.
 */
import type { BucketCall, BucketCallQuery } from '../bucket/bucket-support.js';
import { bucketCallRow, matchesCall } from '../bucket/bucket-support.js';
import { partialMatch, type CallFilter, type CallLog } from '../support/call-log.js';
import type { LogReader, TestDouble } from '../support/double.js';
import { ObjectReader, type ObjectPlace } from '../bucket/object-matcher.js';
import type { Bucket, BucketSnapshot } from '../bucket/bucket.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import { table } from '../support/table.js';

/** A bucket call made through the S3 API, with the name of the bucket it was served under. */
export interface S3Call extends BucketCall {
  readonly bucket: string;
}

/** A bucket call's fields, and the bucket's name (a string: exactly; a RegExp: tested). */
export interface S3CallQuery extends BucketCallQuery {
  bucket?: string | RegExp;
}

/** The buckets an S3Api serves, by name (the account's map, or the view's own). */
type Served = ReadonlyMap<string, object>;

/** The S3Api's state a snapshot holds: the names served as they were (`ServedNames`), each bucket's snapshot (its CORS rules with it). */
interface S3State {
  readonly owner: TestDouble;
  readonly served: unknown;
  readonly states: ReadonlyMap<object, object>;
}

const snapshotState = new WeakMap<object, S3State>();

/** A snapshot of an S3Api. Opaque; restore it with `restore` on the same S3Api. */
export interface S3Snapshot {
  readonly buckets: number;
}

/** A served bucket, reached by itself (its own snapshot, restore, reset and log), not through the registry. */
const servedBucket = (bucket: object): Bucket => {
  if (!bucketLayer(bucket)) throw new TypeError('S3Api: a served bucket is not an edge-doubles Bucket');
  return bucket as Bucket;
};

/** The layer of a served bucket (lib/bucket/internal.ts). */
const layerOf = (bucket: object): BucketLayer => {
  const layer = bucketLayer(bucket);
  if (!layer) throw new TypeError('S3Api: a served bucket is not an edge-doubles Bucket');
  return layer;
};

/** Each served Bucket once (a bucket served under two names logs once), with its first name. */
function distinct(served: Served): [string, object][] {
  const seen = new Map<object, string>();
  for (const [name, bucket] of served) if (!seen.has(bucket)) seen.set(bucket, name);
  return [...seen].map(([bucket, name]) => [name, bucket]);
}

const matchesS3 = (e: S3Call, q: S3CallQuery): boolean => {
  const { bucket, ...call } = q;
  return (bucket === undefined || partialMatch(e.bucket, bucket)) && matchesCall(e, call);
};

const S3_ONLY: BucketCallQuery = { surface: 's3' };

/** The S3 calls in the logs of the buckets an S3Api serves, read afresh at each look. */
class ServedLog implements LogReader<S3Call, S3CallQuery> {
  constructor(private readonly served: Served) {}

  #logs(): [string, CallLog<BucketCall, BucketCallQuery>][] {
    return distinct(this.served).map(([name, bucket]) => [name, layerOf(bucket).support.log]);
  }

  get recording(): boolean {
    return this.#logs().some(([, log]) => log.recording);
  }

  get length(): number {
    return this.all().length;
  }

  /** Every S3 call, oldest first (the same millisecond on two buckets: in the order they are served). */
  all(): S3Call[] {
    const out: S3Call[] = [];
    for (const [name, log] of this.#logs()) for (const e of log.filter(S3_ONLY)) out.push({ ...e, bucket: name });
    return out.sort((a, b) => a.at - b.at); // stable: each bucket's calls keep their order
  }

  filter(f: CallFilter<S3Call, S3CallQuery>): S3Call[] {
    const keep =
      typeof f === 'function' ? (f as (e: S3Call) => boolean) : (e: S3Call) => matchesS3(e, f as S3CallQuery);
    return this.all().filter(keep);
  }

  last(f?: CallFilter<S3Call, S3CallQuery>): S3Call | undefined {
    const list = f === undefined ? this.all() : this.filter(f);
    return list[list.length - 1];
  }

  table(f?: CallFilter<S3Call, S3CallQuery>): string {
    const list = f === undefined ? this.all() : this.filter(f);
    if (list.length === 0) return this.recording ? '(no calls)' : '(no calls: recording is off)';
    // `#` is the call's place in its bucket's own log.
    return table(list.map((e) => ({ '#': String(e.seq), bucket: e.bucket, ...bucketCallRow(e) })));
  }

  toString(): string {
    return this.table();
  }
}

/**
 * `toHaveObject(s3, 'docs/notes/a.txt')`: the first segment names the served bucket, the rest is the
 * key, as a path-style S3 URL and an `s3://docs/notes/a.txt` address do. Unambiguous, since a bucket
 * name never holds a slash (R2's rule). A path naming no served bucket is a TypeError rather than a
 * failed (or, under `.not`, passed) assertion, as `toHaveDnsRecord` does for a zone.
 */
function locateObject(served: Served, path: string): ObjectPlace {
  const slash = path.indexOf('/');
  const name = slash < 0 ? path : path.slice(0, slash);
  const bucket = slash > 0 ? served.get(name) : undefined;
  if (!bucket) {
    const names = [...served.keys()].map((n) => JSON.stringify(n)).join(', ') || 'none';
    const why =
      slash <= 0 ? 'it names no bucket: give "<bucket>/<key>"' : `the S3Api serves no bucket ${JSON.stringify(name)}`;
    throw new TypeError(`toHaveObject: ${JSON.stringify(path)}: ${why} (buckets served: ${names})`);
  }
  return {
    layer: layerOf(bucket),
    key: path.slice(slash + 1),
    label: `bucket ${JSON.stringify(name)}`,
    // The S3Api's log names each call's bucket by the first name it is served under (distinct()).
    onBucket: (e) => served.get((e as S3Call).bucket) === bucket,
  };
}

/**
 * Which buckets an S3Api serves under which names, taken and put back whole: the account's R2
 * backend's default jurisdiction (lib/bucket/backend.ts), or the view's own map.
 */
export interface ServedNames<T> {
  take(): T;
  put(taken: T): void;
}

/**
 * The S3Api's test double over the map of buckets it serves by name (lib/s3/api.ts): snapshot
 * takes its names (`names`) and each bucket's state, whose configuration holds the CORS rules;
 * restore puts them back.
 */
export function s3Double<T>(served: Served, names: ServedNames<T>): TestDouble & { log: ServedLog } {
  const log = new ServedLog(served);
  const double: TestDouble & { log: ServedLog } = {
    name: 'S3Api',
    label: 'S3Api',
    entry: 'call',
    logHint:
      'Build its buckets with { log: true } or call bucket.log.start() on them (logOnFailure(s3) starts every bucket it serves) before the code under test runs.',
    log,
    startLog: () => {
      for (const [, bucket] of distinct(served)) servedBucket(bucket).log.start();
    },
    sameKind: (e, q) => (e as S3Call).op === (q as S3CallQuery).op,
    faultsHint:
      "an S3Api has no fault rules of its own: arm them on the bucket (testFault(s3.bucket('name')!, rule)); they catch its S3 calls",
    snapshot: () => {
      const states = new Map<object, object>();
      for (const [, bucket] of distinct(served)) states.set(bucket, servedBucket(bucket).snapshot());
      const s: S3Snapshot = Object.freeze({ buckets: served.size });
      snapshotState.set(s, { owner: double, served: names.take(), states });
      return s;
    },
    restore: (snapshot) => {
      const s = snapshotState.get(snapshot);
      if (!s || s.owner !== double) throw new TypeError('S3Api.restore: not a snapshot taken by this S3Api');
      names.put(s.served as T);
      for (const [bucket, state] of s.states) servedBucket(bucket).restore(state as BucketSnapshot);
    },
    reset: () => {
      for (const [, bucket] of distinct(served)) servedBucket(bucket).reset();
    },
    readers: [new ObjectReader((path) => locateObject(served, path))],
  };
  return double;
}
