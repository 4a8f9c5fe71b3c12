/**
 * The bucket layer: the one way into a bucket for every surface (ARCHITECTURE.md, "The joints":
 * models and surfaces). It holds the model, the storage the model's state lives in, the test
 * support and the default storage class, and offers R2's operations on plain values, already
 * converted and validated by the surface that calls them:
 *
 * - each operation runs as one storage transaction (memory: at once, synchronously; IndexedDB: one
 *   transaction, see storage.ts), so what one surface writes every other surface, and every other
 *   Bucket on the same database, reads back;
 * - each surface comes in through its own entry (`binding`, `s3`): faults armed on the bucket and
 *   the call log wrap it, the log tagging each call with the surface it came from;
 * - the model's errors (R2ModelError) leave unformatted: each surface phrases them (the binding's
 *   entry makes workerd's plain Error, the S3 view its XML error).
 *
 * The binding (bucket.ts, multipart.ts) converts its arguments as workerd does, then calls in here
 * through `binding`; the S3 view (lib/s3) parses the request, then calls in here through `s3`.
 *
 * Two paths, end to end (issue 24's newcomer traces):
 * - An S3 PUT over HTTP into an IndexedDB bucket: lib/node/server.ts (the socket, body limits)
 *   → lib/s3/api.ts `S3Api#handle` / `#serve` (route, SigV4 in lib/s3/sigv4.ts, `#dispatch`) →
 *   lib/s3/objects.ts `putObject` (headers, checksums, the body read) → here, `viaS3('put', ...)`
 *   (faults and the call log: lib/bucket/bucket-support.ts `around`) → `put` → the storage's
 *   `transact` (lib/bucket/indexeddb-storage.ts `IdbSession#exec`: one IndexedDB transaction that
 *   refreshes the cache, runs model.ts `put`, and writes the object's record and chunks).
 * - A lifecycle expiry on the fake clock: the clock (lib/clock.ts `ManualClock`) only moves; the next
 *   operation on the bucket calls `#tick`, which sees the due time passed and runs `#pass`: the due
 *   index (due-index.ts) hands over the keys whose time came, `#settler` decides each (a lock may
 *   hold it), model.ts `settle` removes it, and `lifecycleDelete` logs it (surface `lifecycle`) and
 *   notifies. The rules themselves came in as a setting (`changeSettings`, op `putBucketLifecycle`).
 *
 * How S3 requests log (op, with the S3 operation in `options.operation`): PutObject → put,
 * GetObject → get, HeadObject → head, DeleteObject and DeleteObjects → delete (the keys),
 * ListObjects(V2) → list, CreateMultipartUpload / UploadPart / CompleteMultipartUpload /
 * AbortMultipartUpload → the binding's multipart operations, UploadPartCopy → uploadPart.
 * CopyObject → one put of the destination (options.source names the source): R2 copies on the
 * server, and no binding call reads the source, so its read is neither logged nor faulted.
 * ListMultipartUploads → list (no key, as ListObjects) and ListParts → list of the upload's key
 * (options.uploadId): the binding has no operation for either, and of its operations `list`, R2's
 * listing read, is the one a test arming "listings fail" means; a rule with a key catches a
 * ListParts of that key. Their results log as `{ uploads, delimitedPrefixes, truncated }` and
 * `{ parts, truncated }`. The remaining reads (an upload's state checked before UploadPart,
 * Complete or Abort, the emptiness check of DeleteBucket) are steps of another operation, run in a
 * transaction but neither logged nor faulted.
 */
import type { BucketSupport } from './bucket-support.js';
import type { Conditional } from './conditional.js';
import type { RequestedChecksum } from './checksums.js';
import { BucketConfig } from './config.js';
import { DueIndex } from './due-index.js';
import { bindingError, r2Error, type R2Action, type SettingAction } from './errors.js';
import { actsOnObjects, FatesUnder, objectFate, passPrefixes, uploadAbortAt } from './lifecycle.js';
import { lockedUntil } from './locks.js';
import { isActive, JOB_BATCH, type BucketJob } from './jobs.js';
import { invoker, type BucketOperation, type Invoke, type Surface } from './invoke.js';
import type { BucketModel, GetOutcome, ListPage, ListQuery, PartView, UploadedPartRef, UploadView } from './model.js';
import { rangeViews, type RangeRequest, type ResolvedRange } from './range.js';
import type { NotificationAction, ObjectEvent } from './notifications.js';
import { REMOVE } from '../persistent-map.js';
import type { BodyBytes, PersistentState } from './storage.js';
import type { ObjectMetadata, StoredObject } from './stored.js';
import type { Body } from './values.js';
import type { SippySource } from './sippy.js';

/** An operation's result: at once on memory, a promise on a persistent storage. */
export type Maybe<R> = R | Promise<R>;

/** What a surface's read plan asks for: the bytes of `read` of the object found, or none. */
export interface ReadPlan {
  readonly read?: ResolvedRange;
}

/** A planned read's outcome: the object found (or undefined), the plan, and the bytes it asked for. */
export interface PlannedRead<P extends ReadPlan> {
  readonly object: StoredObject | undefined;
  readonly plan: P;
  readonly bytes?: BodyBytes;
}

/** The S3 view's results as the call log keeps them: as the binding's would be. */
function s3Summary(r: unknown): unknown {
  if (r === undefined || r === null || typeof r !== 'object') return r;
  if ('plan' in r) return (r as PlannedRead<ReadPlan>).object ?? null; // head / get
  if ('delimitedPrefixes' in r && !('truncated' in r)) {
    const page = r as ListPage;
    return { ...page, truncated: page.cursor !== undefined };
  }
  return r;
}

const asIs = (e: unknown) => e;

/** An object's bytes in memory: views over its chunks (no copy); one chunk read whole is itself (no generator, a small GET's case). */
const memoryBytes = (object: StoredObject, range: ResolvedRange): BodyBytes => {
  const only = object.chunks.length === 1 ? object.chunks[0]! : undefined;
  if (only && range.offset === 0 && range.length === only.byteLength) return { kind: 'chunks', chunks: [only] };
  return { kind: 'chunks', chunks: [...rangeViews(object.chunks, range)] };
};

const noArguments = () => undefined;

/** The surfaces that change a bucket's settings: the S3 view, the REST API (and its test helpers). */
export type SettingSurface = Extract<Surface, 's3' | 'api'>;

/**
 * A lifecycle pass takes the objects that fell due from the due index one by one up to this many,
 * or a sixteenth of the index; when more fell due, one walk of the objects the rules cover costs
 * less (bench/lifecycle.ts).
 */
const TAKE_AT_MOST = 256;

/** `then` for a result that is a value on memory and a promise on a persistent storage. */
export function after<R, T>(r: Maybe<R>, f: (r: R) => T): Maybe<T> {
  return r instanceof Promise ? r.then(f) : f(r as R);
}

export class BucketLayer {
  /** The S3 view's entry: faults and the log around it, model errors left for the view to phrase. */
  readonly s3: Invoke;
  /** The public hosts' entry (r2.dev, custom domains; lib/r2-public): as the S3 view's, logged as `public`. */
  readonly public: Invoke;
  /** The v4 API's object routes' entry (lib/r2-api/objects.ts): as the S3 view's, logged as `api`. */
  readonly api: Invoke;
  /** The binding entries made so far, by whether conversion errors throw (see `binding`). */
  readonly #bindings = new Map<boolean, Invoke>();
  /** The settings entries made so far, by surface (see `changeSettings`). */
  readonly #settingEntries = new Map<SettingSurface, Invoke>();
  /**
   * The bucket's settings (config.ts): bucket state, kept by the bucket's storage. Read it here for
   * the settings' effects inside an operation; change it only through `changeSettings` (or
   * `settingsNow`), so the storage keeps the change and the log and fault rules see it.
   */
  readonly config: BucketConfig;
  /**
   * The lifecycle pass (see `#tick`): the config change it last read (-1: none yet), whether the
   * rules then acted on objects, when its next action falls due (epoch ms; Infinity: none), the
   * objects in the order their actions fall due, and the storage's reload count the index was
   * built against (another Bucket's writes make it stale).
   */
  #seen = -1;
  #acts = false;
  #due = Infinity;
  readonly #index = new DueIndex();
  /** Whether the index holds every object the rules cover (see `#pass`). */
  #indexed = false;
  #reloads = 0;
  /** Whether a pass is queued on the persistent storage (see `#tick`). */
  #queued = false;
  /**
   * Where this bucket's object changes go once they have happened: set by the account that holds
   * the bucket (lib/account/state.ts), which sends each rule's message to its queue. Called only
   * while the bucket has notification rules, so a bucket without any pays one length check a write.
   */
  notifier: ((event: ObjectEvent) => void) | undefined;

  constructor(
    readonly model: BucketModel,
    /** Set when the storage is not memory: each operation then runs as one of its transactions. */
    readonly persistent: PersistentState | undefined,
    readonly support: BucketSupport,
    /** The Bucket's own default storage class (its option), until a setting change replaces it. */
    defaultStorageClass: string,
  ) {
    this.config = new BucketConfig(defaultStorageClass);
    persistent?.holdSettings(this.config);
    this.s3 = support.around(invoker(false, asIs), false, 's3', asIs, s3Summary);
    this.public = support.around(invoker(false, asIs), false, 'public', asIs, s3Summary);
    this.api = support.around(invoker(false, asIs), false, 'api', asIs, s3Summary);
    // Uploads expire by the bucket's lifecycle rules (the default rule: 7 days), not by a constant.
    model.abortAt = (key, created) => uploadAbortAt(this.config.lifecycle, key, created, this.config.lifecycleTiming);
  }

  /**
   * A setting of the bucket (R2's bucket default storage class), shared by every binding over it
   * and read on every put: the API's PATCH changes it (`changeSettings`, lib/r2-api/buckets.ts).
   */
  get defaultStorageClass(): string {
    return this.config.storageClass;
  }

  /**
   * A binding's entry: faults and the log around it, model errors shown as workerd shows them.
   * Whether conversion errors throw synchronously is the binding's compatibility date, not the
   * bucket's: bindings of Workers with different dates over one bucket each take their own entry.
   */
  binding(syncConversionErrors: boolean): Invoke {
    let entry = this.#bindings.get(syncConversionErrors);
    if (!entry) {
      entry = this.support.around(
        invoker(syncConversionErrors, bindingError),
        syncConversionErrors,
        'binding',
        bindingError,
      );
      this.#bindings.set(syncConversionErrors, entry);
    }
    return entry;
  }

  /**
   * An S3 request's operation on this bucket, logged as the binding operation `op` (with the S3
   * operation's name and details in `options`) and caught by fault rules as one.
   */
  viaS3<R>(
    op: BucketOperation,
    key: unknown,
    options: Readonly<Record<string, unknown>>,
    run: () => Maybe<R>,
  ): Promise<R> {
    return this.s3(op, key, options, noArguments, run);
  }

  /** A public host's read (GET, HEAD), logged and faulted as the binding operation `op`. */
  viaPublic<R>(op: BucketOperation, key: string, run: () => Maybe<R>): Promise<R> {
    return this.public(op, key, {}, noArguments, run);
  }

  /**
   * An operation of the v4 API's object routes, logged and faulted as the binding operation `op`;
   * `key` is the key, the keys (a delete of several) or undefined (a listing), `options` what the
   * log keeps beside (the API's operation, a job's id).
   */
  viaApi<R>(
    op: BucketOperation,
    key: string | readonly string[] | undefined,
    run: () => Maybe<R>,
    options: Readonly<Record<string, unknown>> = {},
  ): Promise<R> {
    return this.api(op, key, options, noArguments, run);
  }

  #read<R>(run: () => R): Maybe<R> {
    return this.persistent ? this.persistent.transact(false, run) : run();
  }

  #write<R>(run: () => R): Maybe<R> {
    return this.persistent ? this.persistent.transact(true, run) : run();
  }

  // ---- R2's operations ---------------------------------------------------------------------------

  // head, put, delete and list are a binding's hot path: on memory they call the model without
  // making a closure (a small put is a few hundred nanoseconds).

  /**
   * Where Sippy fetches a key the bucket lacks (sippy.ts), when the bucket's account names a source
   * (lib/r2-api/sippy.ts); Sippy copies in only while both this and `config.sippy` are set.
   */
  sippySource: SippySource | undefined;
  /** Copies under way, by key: reads of one missing key at once fetch it once. */
  readonly #copying = new Map<string, Promise<void>>();

  /**
   * Sippy, before a read of `key`: when it is on and the key is missing, copies the source's object
   * in (as a put of the bucket's own, its default storage class). Undefined when there is nothing to
   * do, so a read without Sippy takes no promise. The copy is not a call of its own (no log entry,
   * no fault, no event notification): what production reports for it is not established.
   */
  #copyIn(key: string, source: SippySource): Promise<void> | undefined {
    const settings = this.config.sippy;
    if (!settings) return undefined;
    const p = this.persistent;
    const stored = () => (p ? p.transact(false, () => this.model.head(key)) : this.model.head(key));
    if (!p && this.model.head(key)) return undefined;
    let running = this.#copying.get(key);
    if (!running) {
      running = (async () => {
        if (await stored()) return;
        const found = await source(settings, key);
        // Written meanwhile (by another surface): that one stands.
        if (!found || (await stored())) return;
        await this.put(
          key,
          found.body,
          { http: found.http, custom: found.custom, storageClass: this.config.storageClass },
          undefined,
          undefined,
        );
      })().finally(() => this.#copying.delete(key));
      this.#copying.set(key, running);
    }
    return running;
  }

  head(key: string): Maybe<StoredObject | undefined> {
    const source = this.sippySource;
    const copying = source && this.#copyIn(key, source);
    return copying ? copying.then(() => this.#head(key)) : this.#head(key);
  }

  #head(key: string): Maybe<StoredObject | undefined> {
    this.#tick();
    const p = this.persistent;
    return p ? p.transact(false, () => this.model.head(key)) : this.model.head(key);
  }

  /** The binding's get: R2's conditional and range rules; `shape` makes the result from the outcome and, on a persistent storage, the bytes read. */
  get<X>(
    key: string,
    cond: Conditional | undefined,
    range: RangeRequest | undefined,
    ssecKeyMd5: string | undefined,
    shape: (outcome: GetOutcome, bytes?: BodyBytes) => Maybe<X>,
  ): Maybe<X> {
    const source = this.sippySource;
    const copying = source && this.#copyIn(key, source);
    return copying
      ? copying.then(() => this.#get(key, cond, range, ssecKeyMd5, shape))
      : this.#get(key, cond, range, ssecKeyMd5, shape);
  }

  #get<X>(
    key: string,
    cond: Conditional | undefined,
    range: RangeRequest | undefined,
    ssecKeyMd5: string | undefined,
    shape: (outcome: GetOutcome, bytes?: BodyBytes) => Maybe<X>,
  ): Maybe<X> {
    this.#tick();
    const p = this.persistent;
    if (!p) return shape(this.model.get(key, cond, range, ssecKeyMd5));
    return p.transact(
      false,
      () => this.model.get(key, cond, range, ssecKeyMd5),
      async (o, reader) =>
        o.kind === 'found' ? shape(o, await reader.read(o.object, o.range.offset, o.range.length)) : shape(o),
    );
  }

  /**
   * A read whose surface decides from the object found, inside the same transaction, which bytes it
   * wants (the S3 view's own conditional, range and partNumber rules). `plan` may throw to refuse.
   */
  read<P extends ReadPlan>(key: string, plan: (object: StoredObject | undefined) => P): Maybe<PlannedRead<P>> {
    const source = this.sippySource;
    const copying = source && this.#copyIn(key, source);
    return copying ? copying.then(() => this.#readPlanned(key, plan)) : this.#readPlanned(key, plan);
  }

  #readPlanned<P extends ReadPlan>(key: string, plan: (object: StoredObject | undefined) => P): Maybe<PlannedRead<P>> {
    this.#tick();
    const p = this.persistent;
    if (!p) {
      const object = this.model.head(key);
      const planned = plan(object);
      return { object, plan: planned, bytes: object && planned.read && memoryBytes(object, planned.read) };
    }
    return p.transact(
      false,
      () => {
        const object = this.model.head(key);
        return { object, plan: plan(object) };
      },
      async (r, reader) =>
        r.object && r.plan.read
          ? { ...r, bytes: await reader.read(r.object, r.plan.read.offset, r.plan.read.length) }
          : r,
    );
  }

  /**
   * The bytes of `range` of an object read earlier (a copy's source), in a transaction of their
   * own: on a persistent storage, refused when the object has been replaced since (its bytes gone).
   */
  bytes(object: StoredObject, range: ResolvedRange): Maybe<BodyBytes> {
    const p = this.persistent;
    if (!p) return memoryBytes(object, range);
    return p.transact(
      false,
      () => undefined,
      (_, reader) => reader.read(object, range.offset, range.length),
    );
  }

  /** A write; `copySource` names what an S3 CopyObject copied (its notification says so). */
  put(
    key: string,
    body: Body,
    metadata: ObjectMetadata,
    checksum: RequestedChecksum | undefined,
    cond: Conditional | undefined,
    copySource?: { bucket: string; object: string },
  ): Maybe<StoredObject | null> {
    this.#tick();
    const p = this.persistent;
    let stored: Maybe<StoredObject | null>;
    // On a persistent storage the lock rules are read inside the transaction (another Bucket on the
    // database may have set them since this one last looked), and so is whether lifecycle rules act
    // on objects: the pass `#tick` queued has not run yet, so `#written` decides there.
    if (!p && !this.#acts && this.config.locks.length === 0) {
      stored = this.model.put(key, body, metadata, checksum, cond);
    } else {
      const run = () => {
        this.#refuseLocked('put', key);
        return this.#written(this.model.put(key, body, metadata, checksum, cond));
      };
      stored = p ? p.transact(true, run) : run();
    }
    if (this.config.notifications.length === 0) return stored;
    return after(stored, (o) => {
      if (o) this.#notifyWritten(copySource ? 'CopyObject' : 'PutObject', o, copySource);
      return o;
    });
  }

  delete(keys: readonly string[]): Maybe<void> {
    this.#tick();
    const p = this.persistent;
    if (!p && this.config.locks.length === 0 && this.config.notifications.length === 0) return this.model.delete(keys);
    return this.#deleteChecked(keys);
  }

  /**
   * A delete under lock rules or notification rules: locked keys refuse the whole delete (as the
   * model's key checks do), and for notifications which keys held an object is read in the same
   * transaction, since whether a missing key's delete sends anything is the account's choice.
   */
  #deleteChecked(keys: readonly string[]): Maybe<void> {
    const notify = this.config.notifications.length !== 0;
    const run = () => {
      if (this.config.locks.length !== 0) for (const k of keys) this.#refuseLocked('delete', k);
      const held = notify ? keys.map((k) => this.model.head(k) !== undefined) : undefined;
      this.model.delete(keys);
      return held;
    };
    const p = this.persistent;
    return after(p ? p.transact(true, run) : run(), (held) => {
      if (!held) return;
      const time = this.model.clock();
      keys.forEach((key, i) => this.notifier?.({ action: 'DeleteObject', key, time, existed: held[i]! }));
    });
  }

  #notifyWritten(action: NotificationAction, o: StoredObject, copySource?: { bucket: string; object: string }): void {
    // The object itself: its etag is read only if the message needs it (notifications.ts `messageJson`).
    const event: ObjectEvent = { action, key: o.key, object: o, time: o.uploaded };
    if (copySource) event.copySource = copySource;
    this.notifier?.(event);
  }

  /**
   * One batch of a background job (jobs.ts): `admit`, when given, makes the job (it sees the settings
   * as stored, and may throw to refuse: notification rules, too many active jobs), otherwise the job
   * is the bucket's job `id`. Up to JOB_BATCH objects under its prefix after the key it last reached
   * are looked at; those uploaded after it started, and those a lock rule keeps, stay; the rest are
   * deleted. The job's record (deleted count, position, COMPLETED once its walk ends) changes in the
   * same write transaction. Deletions notify as any delete does. Undefined when the bucket has no
   * such job (a restore or a deletion took it); a job no longer active is returned as it is.
   */
  jobStep(id: string, admit?: (config: BucketConfig) => BucketJob): Maybe<BucketJob | undefined> {
    this.#tick();
    const run = (): { job: BucketJob | undefined; deleted: string[] } => {
      const c = this.config;
      let job = admit ? admit(c) : c.jobs.find((j) => j.id === id);
      if (admit) c.jobs = [...c.jobs, job!];
      if (!job || !isActive(job)) return { job, deleted: [] };
      const page = this.model.list({
        limit: JOB_BATCH,
        prefix: job.prefix,
        ...(job.after !== undefined ? { startAfter: job.after } : {}),
      });
      const now = this.model.clock();
      const deleted: string[] = [];
      for (const o of page.objects) {
        if (o.uploaded > job.start) continue;
        if (c.locks.length !== 0 && lockedUntil(c.locks, o.key, o.uploaded) > now) continue;
        deleted.push(o.key);
      }
      if (deleted.length) this.model.delete(deleted);
      const last = page.objects[page.objects.length - 1]?.key;
      const done = page.cursor === undefined;
      job = {
        ...job,
        status: done ? 'COMPLETED' : 'RUNNING',
        deleted: job.deleted + deleted.length,
        ...(last !== undefined ? { after: last } : {}),
        ...(done ? { end: now } : {}),
      };
      const finished = job;
      c.jobs = c.jobs.map((j) => (j.id === id ? finished : j));
      return { job, deleted };
    };
    return after(this.#write(run), ({ job, deleted }) => {
      if (deleted.length && this.config.notifications.length !== 0) {
        const time = this.model.clock();
        for (const key of deleted) this.notifier?.({ action: 'DeleteObject', key, time, existed: true });
      }
      return job;
    });
  }

  /**
   * Changes the record of the bucket's job `id` (a failed batch marks it FAILED): a step of the job,
   * run in a write transaction but neither logged nor faulted. No change when the job is gone.
   */
  changeJob(id: string, change: (job: BucketJob) => BucketJob): Maybe<void> {
    return this.#write(() => {
      const c = this.config;
      if (c.jobs.some((j) => j.id === id)) c.jobs = c.jobs.map((j) => (j.id === id ? change(j) : j));
    });
  }

  /** The bucket's jobs as stored now (a read of another operation's progress: neither logged nor faulted). */
  jobs(): Maybe<readonly BucketJob[]> {
    return this.#read(() => this.config.jobs);
  }

  list(query: ListQuery): Maybe<ListPage> {
    this.#tick();
    const p = this.persistent;
    return p ? p.transact(false, () => this.model.list(query)) : this.model.list(query);
  }

  /**
   * A new upload's id; with `cond` (R2's S3 extension), null when the condition fails on the
   * object now at the key, checked in the same transaction.
   */
  createUpload(key: string, metadata: ObjectMetadata, cond?: Conditional): Maybe<string | null> {
    this.#tick();
    return this.#write(() =>
      cond && !this.model.writeConditionHolds('createMultipartUpload', key, cond)
        ? null
        : this.model.createUpload(key, metadata),
    );
  }

  uploadPart(key: string, id: string, partNumber: number, body: Body): Maybe<string> {
    this.#tick();
    return this.#write(() => this.model.uploadPart(key, id, partNumber, body));
  }

  /**
   * The completed object; with `cond` (R2's S3 extension), null when the condition fails on the
   * object now at the key, and the upload is then aborted, in the same transaction.
   */
  completeUpload(
    key: string,
    id: string,
    refs: readonly UploadedPartRef[],
    cond?: Conditional,
  ): Maybe<StoredObject | null> {
    this.#tick();
    const done = this.#write(() => {
      if (cond && !this.model.writeConditionHolds('completeMultipartUpload', key, cond)) {
        this.model.abortUpload(key, id);
        return null;
      }
      this.#refuseLocked('completeMultipartUpload', key); // completing over a locked object overwrites it
      return this.#written(this.model.completeUpload(key, id, refs));
    });
    if (this.config.notifications.length === 0) return done;
    return after(done, (o) => {
      if (o) this.#notifyWritten('CompleteMultipartUpload', o);
      return o;
    });
  }

  abortUpload(key: string, id: string): Maybe<void> {
    this.#tick();
    return this.#write(() => this.model.abortUpload(key, id));
  }

  // ---- the bucket's settings ---------------------------------------------------------------------

  #settingEntry(surface: SettingSurface): Invoke {
    let entry = this.#settingEntries.get(surface);
    if (!entry) {
      // The log keeps no result for a setting call (its outcome is ok or the error).
      entry = this.support.around(invoker(false, asIs), false, surface, asIs, noArguments);
      this.#settingEntries.set(surface, entry);
    }
    return entry;
  }

  /**
   * A change of the bucket's settings asked through `surface` (PutBucketCors, the API's PUT of
   * lifecycle rules, ...): one call like a put, logged and caught by fault rules as `op`, run as one
   * write transaction of the storage, so a persistent storage keeps what `change` set on the
   * configuration (a second Bucket on the database reads it back). `change` sees the settings as
   * stored (read again in the transaction) and may throw to refuse (nothing changes then).
   */
  changeSettings<R>(surface: SettingSurface, op: SettingAction, change: (config: BucketConfig) => R): Promise<R> {
    return this.#settingEntry(surface)(op, undefined, undefined, noArguments, () =>
      this.#write(() => change(this.config)),
    );
  }

  /** A read of the bucket's settings through `surface` (GetBucketCors, the API's GET of lock rules, ...): logged and faulted as `op`. */
  readSettings<R>(surface: SettingSurface, op: SettingAction, read: (config: BucketConfig) => R): Promise<R> {
    return this.#settingEntry(surface)(op, undefined, undefined, noArguments, () =>
      this.#read(() => read(this.config)),
    );
  }

  /**
   * The settings as this bucket's storage holds them now, for a surface that acts on them outside
   * an operation of its own (the CORS headers of an S3 answer, a public host's gate): read in a
   * transaction on a persistent storage (another Bucket may have changed them), at once in memory.
   */
  currentSettings(): Maybe<BucketConfig> {
    return this.#read(() => this.config);
  }

  /**
   * A change made by a test helper (`S3Api.setBucketCors`, `CloudflareApi.addEventNotification`):
   * applied at once (the helper returns synchronously), logged as `op` through `surface`, never
   * faulted (fault rules stand for failures of calls a client makes). On a persistent storage the
   * settings are then stored by a queued transaction; an error it meets reaches the next call.
   */
  settingsNow<R>(surface: SettingSurface, op: SettingAction, change: (config: BucketConfig) => R): R {
    const r = change(this.config);
    this.support.note(op, surface, undefined);
    const p = this.persistent;
    if (p) {
      const settings = this.config.snapshot();
      p.transact(true, () => this.config.restore(settings)).catch((e) => p.fail(e));
    }
    return r;
  }

  // ---- reads only the S3 view makes ----------------------------------------------------------------

  uploadState(key: string, id: string): Maybe<'unknown' | 'active' | 'completed' | 'aborted'> {
    this.#tick();
    return this.#read(() => this.model.uploadState(key, id));
  }

  activeUploads(): Maybe<UploadView[]> {
    this.#tick();
    return this.#read(() => this.model.activeUploads());
  }

  activeUpload(
    key: string,
    id: string,
  ): Maybe<{ metadata: ObjectMetadata; initiated: number; parts: PartView[] } | undefined> {
    this.#tick();
    return this.#read(() => this.model.activeUpload(key, id));
  }

  /** Whether the bucket holds an object or an active upload (DeleteBucket refuses then). */
  holdsAnything(): Maybe<boolean> {
    this.#tick();
    return this.#read(
      () => this.model.list({ limit: 1, prefix: '' }).objects.length > 0 || this.model.activeUploads().length > 0,
    );
  }

  // ---- the bucket's configuration acting on its objects: locks and lifecycle --------------------------

  /**
   * Refuses `action` on `key` while a lock rule keeps the object there (10069, locks.ts). Checked
   * before the model's own checks: the order among R2's refusals is not established.
   */
  #refuseLocked(action: R2Action, key: string): void {
    const locks = this.config.locks;
    if (locks.length === 0) return;
    const o = this.model.storedAt(key);
    if (o && lockedUntil(locks, key, o.uploaded) > this.model.clock()) throw r2Error(action, 'objectLocked');
  }

  /**
   * The object at `key` as the next call would find it, for a reader that is not a call (the
   * `toHaveObject` and its assertions, object-matcher.ts): the lifecycle pass every call runs first
   * runs here too, so an object the clock has expired is gone and one due to move is Infrequent
   * Access. On a persistent storage that pass is its own queued transaction, so the object is
   * shown as the rules leave it (locks win, as in the pass) while the pass has yet to run.
   */
  observe(key: string): StoredObject | undefined {
    this.#tick();
    const o = this.model.head(key);
    const c = this.config;
    if (!o || c.lifecycle.length === 0) return o;
    const now = this.model.clock();
    const fate = objectFate(c.lifecycle, key, o.uploaded, c.lifecycleTiming);
    if (fate.deleteAt <= now && !(c.locks.length && lockedUntil(c.locks, key, o.uploaded) > now)) return undefined;
    if (fate.infrequentAt <= now && o.storageClass !== 'InfrequentAccess')
      return o.withStorageClass('InfrequentAccess');
    return o;
  }

  /** A new object under rules that act on objects: its actions may fall due before the next known one. */
  #written<O extends StoredObject | null>(o: O): O {
    if (o && this.#acts) {
      const fate = objectFate(this.config.lifecycle, o.key, o.uploaded, this.config.lifecycleTiming);
      const at = Math.min(fate.deleteAt, fate.infrequentAt);
      if (this.#indexed) this.#index.set(o.key, at);
      this.#due = Math.min(this.#due, at);
    }
    return o;
  }

  /**
   * Applies the lifecycle rules whose time has come, before an operation: lazily, so what the clock
   * passed is applied when the bucket is next used, never by a timer. Free unless the rules changed
   * or an action is due (one comparison and a clock read); a pass costs less than one list of the
   * objects the rules cover (bench/lifecycle.ts) and finds when the next action falls due.
   */
  #tick(): void {
    if (
      this.#queued ||
      (this.#seen === this.config.changes && (this.#due === Infinity || this.model.clock() < this.#due))
    )
      return;
    const p = this.persistent;
    if (!p) return this.#pass();
    // Queued ahead of the operation that asked, as its own transaction; until it has run, nothing
    // else queues another. A pass that failed leaves the index untrusted: the next one walks.
    this.#queued = true;
    p.transact(true, () => {
      this.#queued = false;
      this.#pass();
    }).catch((e) => {
      this.#queued = false;
      this.#seen = -1;
      p.fail(e);
    });
  }

  /**
   * One lifecycle pass (see `#tick`), in one of three ways:
   * - the rules changed (or the objects did behind this Bucket's back: a restore, another Bucket's
   *   writes): one walk of the objects the rules cover (model.ts `sweep`), settling each and noting
   *   only when the next action falls due; the due index is dropped (most rule changes are set up
   *   before anything falls due, and a walk that files every object costs several lists of them);
   * - an action fell due and the index is not built: one walk, settling each object and filing it
   *   in the index at its next action's time;
   * - an action fell due and the index is built: the objects that fell due taken from it
   *   (O(log n) each) and settled one by one, unless more fell due than that is worth (then a walk).
   * The deletions are announced after.
   */
  #pass(): void {
    const c = this.config;
    const now = this.model.clock();
    const p = this.persistent;
    /** Keys deleted and when each fell due (the clock may have passed that moment long ago): flat lists, no pair a key. */
    const deletedKeys: string[] = [];
    const deletedAt: number[] = [];
    const changed = this.#seen !== c.changes || (p !== undefined && p.reloads !== this.#reloads);
    if (changed) {
      this.#seen = c.changes;
      if (p) this.#reloads = p.reloads;
      this.#acts = actsOnObjects(c.lifecycle);
      this.#indexed = false;
      this.#index.clear();
    }
    const taken =
      this.#acts && this.#indexed ? this.#index.take(now, Math.max(TAKE_AT_MOST, this.#index.size >> 4)) : undefined;
    let due = Infinity;
    if (taken) {
      const file = (key: string, at: number) => this.#index.set(key, at);
      const act = this.#settler(now, deletedKeys, deletedAt, file, (key, uploaded) =>
        objectFate(c.lifecycle, key, uploaded, c.lifecycleTiming),
      );
      for (const key of taken) this.model.settle(key, act);
      due = this.#index.next();
    } else if (this.#acts) {
      this.#indexed = !changed;
      this.#index.clear();
      const file = this.#indexed
        ? (key: string, at: number) => this.#index.set(key, at)
        : (_key: string, at: number) => void (due = Math.min(due, at));
      let fates: FatesUnder;
      const act = this.#settler(now, deletedKeys, deletedAt, file, (key, uploaded) => ({
        deleteAt: fates.deleteAt(key, uploaded),
        infrequentAt: fates.infrequentAt(key, uploaded),
      }));
      for (const prefix of passPrefixes(c.lifecycle)) {
        fates = new FatesUnder(c.lifecycle, prefix, c.lifecycleTiming);
        this.model.sweep(prefix, act);
      }
      if (this.#indexed) due = this.#index.next();
    }
    this.#due = due;
    for (let i = 0; i < deletedKeys.length; i++) this.lifecycleDelete(deletedKeys[i]!, deletedAt[i]!);
  }

  /**
   * What the rules do to one object now (a pass's `act`): REMOVE when its deletion fell due (and
   * no lock holds it), the object in InfrequentAccess when its transition fell due, else nothing;
   * either way `file` is told when its next action falls due (Infinity: never).
   */
  #settler(
    now: number,
    deletedKeys: string[],
    deletedAt: number[],
    file: (key: string, at: number) => void,
    fate: (key: string, uploaded: number) => { deleteAt: number; infrequentAt: number },
  ): (o: StoredObject) => StoredObject | typeof REMOVE | undefined {
    const locks = this.config.locks;
    return (o) => {
      const { deleteAt, infrequentAt } = fate(o.key, o.uploaded);
      if (deleteAt <= now) {
        // Locks win over lifecycle (docs r2/buckets/bucket-locks): deleted once the lock ends.
        const until = locks.length ? lockedUntil(locks, o.key, o.uploaded) : -Infinity;
        if (until > now) {
          file(o.key, until);
          return undefined;
        }
        deletedKeys.push(o.key);
        deletedAt.push(Math.max(deleteAt, until));
        return REMOVE; // a deletion wins over a transition due at the same time (docs)
      }
      // Already in the class a transition moves to: nothing to wait for but the deletion.
      if (o.storageClass === 'InfrequentAccess' || infrequentAt === Infinity) {
        file(o.key, deleteAt);
        return undefined;
      }
      if (infrequentAt > now) {
        file(o.key, Math.min(deleteAt, infrequentAt));
        return undefined;
      }
      file(o.key, deleteAt);
      // Same bytes, etag, version and upload time (a persistent storage then rewrites only the
      // object's record, not its body: indexeddb-storage.ts).
      return o.withStorageClass('InfrequentAccess');
    };
  }

  /**
   * The one place a lifecycle deletion is announced, after the model removed the object: the call
   * log records it (op `delete`, surface `lifecycle`), and the bucket's notification rules send
   * `LifecycleDeletion` (docs r2/buckets/event-notifications, since GA;
   * docs/sources/r2-api.md#event-notifications) with the moment it fell due.
   */
  lifecycleDelete(key: string, time: number = this.model.clock()): void {
    this.support.note('delete', 'lifecycle', key);
    if (this.config.notifications.length !== 0) this.notifier?.({ action: 'LifecycleDeletion', key, time });
  }

  // ---- test support ----------------------------------------------------------------------------------

  /** Empties the bucket (objects and uploads) and clears fault rules and the call log. */
  reset(): void {
    this.#index.clear();
    this.#indexed = false;
    if (this.persistent) this.persistent.clear();
    else this.model.clear();
    this.support.clear();
  }
}
