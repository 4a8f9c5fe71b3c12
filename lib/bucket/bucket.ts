/**
 * `Bucket`: the surface of the R2 double. Each method converts its arguments exactly as workerd's
 * binding does (same errors, same order), hands plain values to the model, and shapes what comes
 * back as the runtime does.
 *
 * workerd works in two phases and the order of errors follows from it: first every argument and
 * every field of an options struct is type-converted (TypeErrors; see invoke.ts for whether they
 * throw or reject), then the method body interprets them (quoted etags, header parsing, ranges,
 * hash lengths, SSE-C key format, stream length) and calls R2. Each method below is written as
 * those two phases. The second phase ends in the bucket layer (layer.ts), which every surface goes
 * through: storage transactions, faults and the call log live there.
 */
import { timeSource, type Clock } from '../clock.js';
import { describe, resolveCompat, type BucketCompat } from './compat.js';
import {
  bucketDouble,
  BucketSupport,
  type BucketCall,
  type BucketCallQuery,
  type BucketFault,
} from './bucket-support.js';
import { BucketLayer } from './layer.js';
import type { ConfigSnapshot } from './config.js';
import type { CallLog } from '../support/call-log.js';
import type { FaultList } from '../support/faults.js';
import { registerDouble } from '../support/registry.js';
import { bindLayer, bucketLayer } from './internal.js';
import { checkSsecKey, convertSsecKey, ssecKeyMd5 } from './ssec.js';
import { convertConditional, unwrapConditional, type Conditional } from './conditional.js';
import { convertHashFields, requestedChecksum, type RequestedChecksum } from './checksums.js';
import { optionalStringField, structOrEmpty, toInt32, toStr } from './coerce.js';
import { bindingError, fieldTypeError, parameterTypeError, putValueTypeError, r2Error } from './errors.js';
import type { Invoke } from './invoke.js';
import {
  defaultStorage,
  resolveOptions,
  type BucketOptions,
  type BucketSeed,
  type BucketSeedValue,
} from './options.js';
import { tagClass, untag } from './class-tags.js';
import {
  NO_CUSTOM_FIELDS,
  parseCustomMetadata,
  parseHttpMetadata,
  sentHttpFields,
  type HttpFields,
} from './metadata.js';
import { BucketModel, type GetOutcome, type ListPage, type ModelSnapshot } from './model.js';
import type { BodyBytes, BucketStorage, PersistentState } from './storage.js';
import { R2MultipartUpload } from './multipart.js';
import { checkRange, convertRange } from './range.js';
import { GetResult, HeadResult, WHOLE_OBJECT, WRITTEN_OBJECT } from './results.js';
import { byteStreamsReady } from '../streams.js';
import { acceptValue, checkStreamLength, readValue, type AcceptedValue, type Body } from './values.js';
import type { ObjectMetadata, StoredObject } from './stored.js';
import type {
  R2BucketLike,
  R2GetOptions,
  R2ListOptions,
  R2MultipartOptions,
  R2ObjectsLike,
  R2PutOptions,
  R2PutValue,
} from './types.js';

export type { BucketOptions, BucketSeed, BucketSeedValue };

/**
 * What a snapshot handle stands for: the model's state (memory), or, on a persistent storage, that
 * state once the storage has taken it (after the operations already started) and the storage that
 * took it (its bodies are in that database).
 */
const snapshotState = new WeakMap<
  object,
  ModelSnapshot | { readonly from: PersistentState; readonly state: Promise<ModelSnapshot> }
>();
/** The bucket's configuration (config.ts) when each snapshot was taken. */
const snapshotConfig = new WeakMap<object, ConfigSnapshot>();

/** A bucket's state at one moment (objects, multipart uploads and configuration). Opaque; restore it with `restore`. */
export interface BucketSnapshot {
  readonly objects: number;
}

const isBody = (v: unknown): v is string | ArrayBuffer | ArrayBufferView =>
  typeof v === 'string' || v instanceof ArrayBuffer || ArrayBuffer.isView(v);

/** Runs a method's phases at once and returns its result as is (seeding: string and byte bodies only). */
const direct: Invoke = ((
  _op: unknown,
  _key: unknown,
  _options: unknown,
  convert: () => unknown,
  body: (a: unknown) => unknown,
) => {
  const args = convert();
  try {
    return body(args);
  } catch (e) {
    throw bindingError(e);
  }
}) as unknown as Invoke;

/** A bucket's state and its one way in: the model on its storage, with its test support. */
function newLayer(
  clock: Clock | undefined,
  log: boolean,
  storage: BucketStorage | undefined,
  defaultStorageClass: string,
): BucketLayer {
  const time = timeSource(clock);
  const attached = (storage ?? defaultStorage()).attach();
  const layer = new BucketLayer(
    new BucketModel(time.now, attached.state),
    attached.persistent,
    new BucketSupport(time, log),
    defaultStorageClass,
  );
  clocks.set(layer, clock);
  if (storage) storages.set(layer, storage);
  return layer;
}

/** The `storage` option each bucket's state was made on, when one was given. */
const storages = new WeakMap<BucketLayer, BucketStorage>();

/**
 * @internal The storage `bucket`'s state lives in, when one was given (undefined: memory by
 * default): `--persist` (lib/node/persist) records a bucket's storage name to open it again.
 */
export function storageOf(bucket: Bucket): BucketStorage | undefined {
  const layer = bucketLayer(bucket);
  return layer && storages.get(layer);
}

/** The `clock` option each bucket's state was made with (undefined: `Date.now()`), for `clockOf`. */
const clocks = new WeakMap<BucketLayer, Clock | undefined>();

/**
 * @internal The clock option `bucket`'s state runs on (every binding over it shares it), or
 * undefined for `Date.now()`: `createEnv` checks its own `clock` against an account's bucket's.
 */
export function clockOf(bucket: Bucket): Clock | undefined {
  const layer = bucketLayer(bucket);
  return layer && clocks.get(layer);
}

/** The layer of the bucket `over` names (option `over`). */
function layerOf(over: object): BucketLayer {
  const layer = bucketLayer(over);
  if (!layer)
    throw new TypeError(`Bucket option 'over': expected a Bucket made by edge-doubles, got ${describe(over)}.`);
  return layer;
}

/** Each bucket's compatibility switches, for `bindingFor`. Kept off the instance, which shows only R2Bucket's members. */
const compats = new WeakMap<Bucket, BucketCompat>();

/**
 * A binding of `bucket`'s state for a Worker of this compatibility date and flags: `bucket` itself
 * when its own switches are the same, else a new `Bucket` over it (option `over`).
 */
export function bindingFor(
  bucket: Bucket,
  compatibilityDate: string | undefined,
  compatibilityFlags: readonly string[] | undefined,
): Bucket {
  const own = compats.get(bucket);
  const wanted = resolveCompat(compatibilityDate, compatibilityFlags);
  const same = own !== undefined && (Object.keys(wanted) as (keyof BucketCompat)[]).every((k) => own[k] === wanted[k]);
  return same ? bucket : new Bucket({ over: bucket, compatibilityDate, compatibilityFlags });
}

/** At most this many entries per page whenever metadata is sent along (the local R2's rule). */
const INCLUDE_PAGE_CAP = 100;

/** The metadata parts of put / createMultipartUpload options, in workerd's field order. */
function convertMetadata(o: Record<string, unknown>, struct: string) {
  const http = parseHttpMetadata(o.httpMetadata, struct);
  const custom = parseCustomMetadata(o.customMetadata, struct) ?? NO_CUSTOM_FIELDS;
  return { http, custom };
}

const storageClassOf = (o: Record<string, unknown>, fallback: string) =>
  o.storageClass === undefined ? fallback : toStr(o.storageClass);

const md5OfKey = (hexKey: string | undefined) => (hexKey === undefined ? undefined : ssecKeyMd5(hexKey));

function convertInclude(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw fieldTypeError('include', 'ListOptions', 'Array');
  return v.map((e, i) => {
    if (typeof e !== 'string') {
      throw new TypeError(`Incorrect type for array element ${i}: the provided value is not of type 'string'.`);
    }
    return e;
  });
}

/** A put value workerd cannot convert, under a date that substitutes null for it: an empty object. */
const SUBSTITUTED_NULL = (): AcceptedValue => ({ kind: 'bytes', chunks: [] });

/**
 * The bucket. Its `constructor.name` is workerd's, 'R2Bucket' (code finds R2 bindings by that name);
 * `Bucket` is the short name it is exported under.
 */
export class Bucket implements R2BucketLike {
  /** The one way into this bucket's model, shared with the S3 view (layer.ts). */
  readonly #layer: BucketLayer;
  /** The layer's entry for a binding of this compatibility date. */
  readonly #binding: Invoke;
  /** `#binding`, swapped for `direct` while seeding. */
  #invoke: Invoke;
  readonly #honorsInclude: boolean;
  readonly #substitutesNull: boolean;
  /** Results, checksums and upload handles report their class to Object.prototype.toString. */
  readonly #tagged: boolean;

  /** Every option is checked here, once (a TypeError naming it), so no call pays for it. */
  constructor(options?: BucketOptions) {
    const { defaultStorageClass, clock, compat, seed, log, lifecycleTiming, storage, over } = resolveOptions(options);
    this.#layer = over === undefined ? newLayer(clock, log, storage, defaultStorageClass) : layerOf(over);
    if (over === undefined) this.#layer.config.lifecycleTiming = lifecycleTiming;
    this.#binding = this.#layer.binding(compat.throwsSynchronously);
    this.#invoke = this.#binding;
    this.#honorsInclude = compat.honorsInclude;
    this.#substitutesNull = compat.substitutesNull;
    this.#tagged = compat.setsToStringTag;
    compats.set(this, compat);
    if (!this.#tagged) untag(this);
    // The S3 view and the API (internal.ts) and the test support (lib/support) reach this same layer:
    // one state, one set of rules.
    bindLayer(this, this.#layer);
    registerDouble(this, bucketDouble(this, this.#layer));
    if (seed) this.seed(seed);
  }

  /** A result as this bucket's compatibility date shows it (see class-tags.ts). */
  #result<R extends HeadResult>(r: R): R {
    if (!this.#tagged) {
      untag(r);
      untag(r.checksums, true);
    }
    return r;
  }

  // ---- test support (not part of R2Bucket) ---------------------------------------------------

  /**
   * Stores objects at once, synchronously, as `put` would (same rules and errors, thrown here).
   * Bodies are strings or bytes; an object form adds `put` options (httpMetadata, customMetadata,
   * storageClass, ...). Not recorded in the call log and never faulted.
   */
  seed(objects: BucketSeed): this {
    const saved = this.#invoke;
    this.#invoke = direct;
    try {
      for (const key of Object.keys(objects)) {
        const v = objects[key]!;
        const { body, ...options } = isBody(v) ? { body: v } : v;
        if (!isBody(body))
          throw new TypeError(
            `Bucket seed ${JSON.stringify(key)}: a body must be a string, an ArrayBuffer or an ArrayBufferView`,
          );
        const stored = this.put(key, body, options);
        // On a persistent storage the write is queued: an error it meets reaches the next call.
        const p = this.#layer.persistent;
        if (p) stored.catch((e: unknown) => p.fail(e));
      }
    } finally {
      this.#invoke = saved;
    }
    return this;
  }

  /**
   * The state now (objects, multipart uploads and the bucket's configuration), in O(1): later changes never reach it. On
   * IndexedDbStorage it is taken after the calls already made, and costs O(objects + parts) writes
   * (each body it references is kept in the database from then on).
   */
  snapshot(): BucketSnapshot {
    const { model, persistent: p } = this.#layer;
    const s = { objects: model.size };
    snapshotState.set(s, p ? { from: p, state: p.snapshot() } : model.snapshot());
    snapshotConfig.set(s, this.#layer.config.snapshot());
    return Object.freeze(s);
  }

  /**
   * Brings back a snapshot's state (of this bucket or another), in O(1); later changes never reach
   * the snapshot. Fault rules and the call log are cleared, as a test's fresh start wants.
   */
  restore(snapshot: BucketSnapshot): void {
    const s = snapshotState.get(snapshot);
    if (!s) throw new TypeError('Bucket.restore: not a snapshot taken by Bucket.snapshot()');
    const { model, persistent: p, support } = this.#layer;
    const settings = snapshotConfig.get(snapshot)!;
    if ('from' in s) {
      if (s.from !== p)
        throw new TypeError(
          'Bucket.restore: a snapshot of a bucket on a persistent storage can be restored only into that bucket',
        );
      p!.restore(s.state, settings); // the storage keeps the settings with the objects
    } else {
      if (p)
        throw new TypeError(
          'Bucket.restore: a snapshot of a bucket in memory cannot be restored into a bucket on a persistent storage',
        );
      model.restore(s);
    }
    this.#layer.config.restore(settings);
    support.clear();
  }

  /** Empties the bucket (objects and uploads; its configuration stays) and clears fault rules and the call log. */
  reset(): void {
    this.#layer.reset();
  }

  /** Fault rules: `bucket.faults.add({ op: 'put', times: 2, error: 'internal' })`. */
  get faults(): FaultList<BucketFault, unknown> {
    return this.#layer.support.faults as FaultList<BucketFault, unknown>;
  }

  /** The call log (`log: true`, or `bucket.log.start()`). */
  get log(): CallLog<BucketCall, BucketCallQuery> {
    return this.#layer.support.log;
  }

  /** The object's metadata, or null when there is none. */
  head(key: string): Promise<HeadResult | null> {
    const given = arguments.length;
    return this.#invoke(
      'head',
      key,
      undefined,
      () => {
        if (given < 1) throw parameterTypeError('head', 'R2Bucket', 1, 'string');
        return toStr(key);
      },
      (name) => {
        const object = this.#layer.head(name);
        return object instanceof Promise ? object.then((o) => this.#headResult(o)) : this.#headResult(object);
      },
    );
  }

  #headResult(object: StoredObject | undefined): HeadResult | null {
    return object ? this.#result(new HeadResult(object, WHOLE_OBJECT)) : null;
  }

  /** The object with its body; its metadata alone when an `onlyIf` condition fails; null when absent. */
  get(
    key: string,
    options: R2GetOptions & { onlyIf: NonNullable<R2GetOptions['onlyIf']> },
  ): Promise<GetResult | HeadResult | null>;
  /** The object with its body (or the requested range of it), or null when absent. */
  get(key: string, options?: R2GetOptions): Promise<GetResult | null>;
  get(key: string, options?: R2GetOptions): Promise<GetResult | HeadResult | null> {
    const given = arguments.length;
    return this.#invoke(
      'get',
      key,
      options,
      () => {
        if (given < 1) throw parameterTypeError('get', 'R2Bucket', 1, 'string');
        const name = toStr(key);
        const o = structOrEmpty(options, () => parameterTypeError('get', 'R2Bucket', 2, 'GetOptions'));
        return {
          name,
          onlyIf: convertConditional(o.onlyIf, 'GetOptions'),
          range: convertRange(o.range),
          ssecKey: convertSsecKey(o.ssecKey),
        };
      },
      ({ name, onlyIf, range: convertedRange, ssecKey }) => {
        const cond = onlyIf && unwrapConditional(onlyIf);
        const range = checkRange(convertedRange);
        const ssec = checkSsecKey(ssecKey);
        return this.#layer.get(name, cond, range, md5OfKey(ssec), this.#getResult);
      },
    );
  }

  /** A get's result; on a persistent storage, with the bytes read in the get's transaction. */
  readonly #getResult = (
    outcome: GetOutcome,
    bytes?: BodyBytes,
  ): GetResult | HeadResult | null | Promise<GetResult> => {
    switch (outcome.kind) {
      case 'missing':
        return null;
      case 'precondition-failed':
        return this.#result(new HeadResult(outcome.object, WHOLE_OBJECT));
      case 'found': {
        const shape = { range: outcome.range, http: true, custom: true };
        // Only a runtime without byte streams waits here, once, for the ponyfill (streams.ts).
        const ready = byteStreamsReady();
        const result = this.#result(new GetResult(outcome.object, shape, bytes));
        return ready ? ready.then(() => result) : result;
      }
    }
  };

  /** Writes the object; null when an `onlyIf` condition fails. */
  put(
    key: string,
    value: R2PutValue,
    options: R2PutOptions & { onlyIf: NonNullable<R2PutOptions['onlyIf']> },
  ): Promise<HeadResult | null>;
  /** Writes the object (a copy of `value`) and returns its metadata. */
  put(key: string, value: R2PutValue, options?: R2PutOptions): Promise<HeadResult>;
  put(key: string, value: R2PutValue, options?: R2PutOptions): Promise<HeadResult | null> {
    const given = arguments.length;
    return this.#invoke(
      'put',
      key,
      options,
      () => {
        if (given < 1) throw parameterTypeError('put', 'R2Bucket', 1, 'string');
        const name = toStr(key);
        // The value is copied here, synchronously: a caller mutating its buffer later changes nothing.
        // Before 2022-06-01 a value of the wrong type (but present) counts as null: an empty object.
        const accepted =
          given < 2
            ? undefined
            : (acceptValue(value, true) ?? (this.#substitutesNull ? SUBSTITUTED_NULL() : undefined));
        if (!accepted) throw putValueTypeError();
        const o = structOrEmpty(options, () => parameterTypeError('put', 'R2Bucket', 3, 'PutOptions'));
        return {
          name,
          accepted,
          onlyIf: convertConditional(o.onlyIf, 'PutOptions'),
          ...convertMetadata(o, 'PutOptions'),
          hashes: convertHashFields(o),
          storageClass: storageClassOf(o, this.#layer.defaultStorageClass),
          ssecKey: convertSsecKey(o.ssecKey),
        };
      },
      (a) => {
        const cond = a.onlyIf && unwrapConditional(a.onlyIf);
        const checksum = requestedChecksum(a.hashes);
        const ssec = checkSsecKey(a.ssecKey);
        checkStreamLength(a.accepted);
        const metadata = {
          http: sentHttpFields(a.http),
          custom: a.custom,
          storageClass: a.storageClass,
          ssecKeyMd5: md5OfKey(ssec),
        };
        // Bytes already copied are stored in this same turn; Blobs and streams are read first.
        const read = readValue(a.accepted);
        return read instanceof Promise
          ? read.then((body) => this.#store(a.name, body, metadata, checksum, cond, a.http))
          : this.#store(a.name, read, metadata, checksum, cond, a.http);
      },
      value,
    );
  }

  #store(
    key: string,
    body: Body,
    metadata: ObjectMetadata,
    checksum: RequestedChecksum | undefined,
    cond: Conditional | undefined,
    givenHttp?: HttpFields,
  ): HeadResult | null | Promise<HeadResult | null> {
    const stored = this.#layer.put(key, body, metadata, checksum, cond);
    // The put result shows the HTTP metadata as given (sentHttpFields says where that differs).
    if (givenHttp !== undefined && givenHttp !== metadata.http) {
      const shape = { ...WRITTEN_OBJECT, httpAsGiven: givenHttp };
      const written = (s: StoredObject | null) => s && this.#result(new HeadResult(s, shape));
      return stored instanceof Promise ? stored.then(written) : written(stored);
    }
    return stored instanceof Promise ? stored.then(this.#written) : this.#written(stored);
  }

  readonly #written = (stored: StoredObject | null): HeadResult | null =>
    stored && this.#result(new HeadResult(stored, WRITTEN_OBJECT));

  /** Deletes one key, or up to 1,000 at once, all or nothing. */
  delete(keys: string | string[]): Promise<void> {
    const given = arguments.length;
    return this.#invoke(
      'delete',
      keys,
      undefined,
      () => {
        if (given < 1) throw parameterTypeError('delete', 'R2Bucket', 1, 'string or Array');
        return Array.isArray(keys) ? keys.map(toStr) : [toStr(keys)];
      },
      (names) => this.#layer.delete(names),
    );
  }

  /** A page of the bucket's keys in UTF-8 byte order, with R2's prefix, delimiter, cursor and include rules. */
  list(options?: R2ListOptions): Promise<R2ObjectsLike> {
    return this.#invoke(
      'list',
      undefined,
      options,
      () => {
        const o = structOrEmpty(options, () => parameterTypeError('list', 'R2Bucket', 1, 'ListOptions'));
        return {
          limit: o.limit === undefined ? undefined : toInt32(o.limit),
          prefix: optionalStringField(o, 'prefix', 'ListOptions'),
          cursor: optionalStringField(o, 'cursor', 'ListOptions'),
          delimiter: optionalStringField(o, 'delimiter', 'ListOptions'),
          startAfter: optionalStringField(o, 'startAfter', 'ListOptions'),
          include: convertInclude(o.include),
        };
      },
      (args) => this.#list(args),
    );
  }

  #list({
    limit,
    prefix,
    cursor,
    delimiter,
    startAfter,
    include,
  }: {
    limit: number | undefined;
    prefix: string | undefined;
    cursor: string | undefined;
    delimiter: string | undefined;
    startAfter: string | undefined;
    include: string[] | undefined;
  }): R2ObjectsLike | Promise<R2ObjectsLike> {
    for (const v of include ?? []) {
      if (v !== 'httpMetadata' && v !== 'customMetadata') throw new RangeError(`Unsupported include value ${v}`);
    }
    // -1 is the wire format's "no limit given" (an unsigned all-ones), so it means the default.
    let pageSize = limit === undefined || limit === -1 ? 1000 : limit;
    if (pageSize < 1 || pageSize > 1000) throw r2Error('list', 'invalidMaxKeys');
    // Before 2022-08-04 the binding always asks for both kinds of metadata.
    const http = !this.#honorsInclude || (include?.includes('httpMetadata') ?? false);
    const custom = !this.#honorsInclude || (include?.includes('customMetadata') ?? false);
    if (!this.#honorsInclude || (include !== undefined && include.length > 0)) {
      pageSize = Math.min(pageSize, INCLUDE_PAGE_CAP);
    }
    const page = this.#layer.list({ limit: pageSize, prefix: prefix ?? '', cursor, delimiter, startAfter });
    const shape = { http, custom };
    const result = (page: ListPage): R2ObjectsLike => {
      const objects = page.objects.map((obj) => this.#result(new HeadResult(obj, shape)));
      const { delimitedPrefixes } = page;
      return page.cursor === undefined
        ? { objects, truncated: false, delimitedPrefixes }
        : { objects, truncated: true, cursor: page.cursor, delimitedPrefixes };
    };
    return page instanceof Promise ? page.then(result) : result(page);
  }

  /** Starts a multipart upload of `key`; R2 aborts it if not completed within 7 days. */
  createMultipartUpload(key: string, options?: R2MultipartOptions): Promise<R2MultipartUpload> {
    const given = arguments.length;
    return this.#invoke(
      'createMultipartUpload',
      key,
      options,
      () => {
        if (given < 1) throw parameterTypeError('createMultipartUpload', 'R2Bucket', 1, 'string');
        const name = toStr(key);
        const o = structOrEmpty(options, () =>
          parameterTypeError('createMultipartUpload', 'R2Bucket', 2, 'MultipartOptions'),
        );
        return {
          name,
          ...convertMetadata(o, 'MultipartOptions'),
          storageClass: storageClassOf(o, this.#layer.defaultStorageClass),
          ssecKey: convertSsecKey(o.ssecKey),
        };
      },
      (a) => {
        const ssec = checkSsecKey(a.ssecKey);
        const metadata = {
          http: sentHttpFields(a.http),
          custom: a.custom,
          storageClass: a.storageClass,
          ssecKeyMd5: md5OfKey(ssec),
        };
        const handle = (id: string | null) =>
          new R2MultipartUpload(this.#layer, this.#binding, a.name, id!, this.#tagged);
        const id = this.#layer.createUpload(a.name, metadata);
        return id instanceof Promise ? id.then(handle) : handle(id);
      },
    );
  }

  /** Synchronous and unchecked, as in workerd: a bogus id is refused only when the handle is used. */
  resumeMultipartUpload(key: string, uploadId: string): R2MultipartUpload {
    // Arguments are converted in order: a bad key is refused before a missing upload id.
    const given = arguments.length;
    if (given < 1) throw parameterTypeError('resumeMultipartUpload', 'R2Bucket', 1, 'string');
    const name = toStr(key);
    if (given < 2) throw parameterTypeError('resumeMultipartUpload', 'R2Bucket', 2, 'string');
    return new R2MultipartUpload(this.#layer, this.#binding, name, toStr(uploadId), this.#tagged);
  }
}

// workerd's class name, and its toString tag (compatibility date 2024-09-26 on).
Object.defineProperty(Bucket, 'name', { value: 'R2Bucket' });
tagClass(Bucket, 'R2Bucket');
