/**
 * The bucket layer: the one way into a bucket for every surface (DESIGN.md, "One account, many
 * surfaces"). It holds the model, the storage the model's state lives in, the test support and the
 * default storage class, and offers R2's operations on plain values, already converted and
 * validated by the surface that calls them:
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
import type { BucketSupport } from '../support/bucket-support.js';
import type { Conditional } from './conditional.js';
import type { RequestedChecksum } from './checksums.js';
import { BucketConfig } from './config.js';
import { bindingError } from './errors.js';
import { invoker, type BucketOperation, type Invoke } from './invoke.js';
import type { BucketModel, GetOutcome, ListPage, ListQuery, PartView, UploadedPartRef, UploadView } from './model.js';
import { rangeViews, type RangeRequest, type ResolvedRange } from './range.js';
import type { BodyBytes, PersistentState } from './storage.js';
import type { ObjectMetadata, StoredObject } from './stored.js';
import type { Body } from './values.js';

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

/** An object's bytes in memory: views over its chunks (no copy). */
const memoryBytes = (object: StoredObject, range: ResolvedRange): BodyBytes => ({ kind: 'chunks', chunks: [...rangeViews(object.chunks, range)] });

const noArguments = () => undefined;

export class BucketLayer {
  /** The S3 view's entry: faults and the log around it, model errors left for the view to phrase. */
  readonly s3: Invoke;
  /** The binding entries made so far, by whether conversion errors throw (see `binding`). */
  readonly #bindings = new Map<boolean, Invoke>();
  /**
   * The bucket's configuration (CORS today; lifecycle, locks, public access next): a setting of the
   * bucket, not of one surface, so every view reads the same (config.ts).
   */
  readonly config = new BucketConfig();

  constructor(
    readonly model: BucketModel,
    /** Set when the storage is not memory: each operation then runs as one of its transactions. */
    readonly persistent: PersistentState | undefined,
    readonly support: BucketSupport,
    /** A setting of the bucket (R2's bucket default storage class), shared by every binding over it. */
    readonly defaultStorageClass: string,
  ) {
    this.s3 = support.around(invoker(false, asIs), false, 's3', asIs, s3Summary);
  }

  /**
   * A binding's entry: faults and the log around it, model errors shown as workerd shows them.
   * Whether conversion errors throw synchronously is the binding's compatibility date, not the
   * bucket's: bindings of Workers with different dates over one bucket each take their own entry.
   */
  binding(syncConversionErrors: boolean): Invoke {
    let entry = this.#bindings.get(syncConversionErrors);
    if (!entry) {
      entry = this.support.around(invoker(syncConversionErrors, bindingError), syncConversionErrors, 'binding', bindingError);
      this.#bindings.set(syncConversionErrors, entry);
    }
    return entry;
  }

  /**
   * An S3 request's operation on this bucket, logged as the binding operation `op` (with the S3
   * operation's name and details in `options`) and caught by fault rules as one.
   */
  viaS3<R>(op: BucketOperation, key: unknown, options: Readonly<Record<string, unknown>>, run: () => Maybe<R>): Promise<R> {
    return this.s3(op, key, options, noArguments, run);
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

  head(key: string): Maybe<StoredObject | undefined> {
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
    const p = this.persistent;
    if (!p) return shape(this.model.get(key, cond, range, ssecKeyMd5));
    return p.transact(
      false,
      () => this.model.get(key, cond, range, ssecKeyMd5),
      async (o, reader) => (o.kind === 'found' ? shape(o, await reader.read(o.object, o.range.offset, o.range.length)) : shape(o)),
    );
  }

  /**
   * A read whose surface decides from the object found, inside the same transaction, which bytes it
   * wants (the S3 view's own conditional, range and partNumber rules). `plan` may throw to refuse.
   */
  read<P extends ReadPlan>(key: string, plan: (object: StoredObject | undefined) => P): Maybe<PlannedRead<P>> {
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
      async (r, reader) => (r.object && r.plan.read ? { ...r, bytes: await reader.read(r.object, r.plan.read.offset, r.plan.read.length) } : r),
    );
  }

  /**
   * The bytes of `range` of an object read earlier (a copy's source), in a transaction of their
   * own: on a persistent storage, refused when the object has been replaced since (its bytes gone).
   */
  bytes(object: StoredObject, range: ResolvedRange): Maybe<BodyBytes> {
    const p = this.persistent;
    if (!p) return memoryBytes(object, range);
    return p.transact(false, () => undefined, (_, reader) => reader.read(object, range.offset, range.length));
  }

  put(key: string, body: Body, metadata: ObjectMetadata, checksum: RequestedChecksum | undefined, cond: Conditional | undefined): Maybe<StoredObject | null> {
    const p = this.persistent;
    return p ? p.transact(true, () => this.model.put(key, body, metadata, checksum, cond)) : this.model.put(key, body, metadata, checksum, cond);
  }

  delete(keys: readonly string[]): Maybe<void> {
    const p = this.persistent;
    return p ? p.transact(true, () => this.model.delete(keys)) : this.model.delete(keys);
  }

  list(query: ListQuery): Maybe<ListPage> {
    const p = this.persistent;
    return p ? p.transact(false, () => this.model.list(query)) : this.model.list(query);
  }

  /**
   * A new upload's id; with `cond` (R2's S3 extension), null when the condition fails on the
   * object now at the key, checked in the same transaction.
   */
  createUpload(key: string, metadata: ObjectMetadata, cond?: Conditional): Maybe<string | null> {
    return this.#write(() => (cond && !this.model.writeConditionHolds('createMultipartUpload', key, cond) ? null : this.model.createUpload(key, metadata)));
  }

  uploadPart(key: string, id: string, partNumber: number, body: Body): Maybe<string> {
    return this.#write(() => this.model.uploadPart(key, id, partNumber, body));
  }

  /**
   * The completed object; with `cond` (R2's S3 extension), null when the condition fails on the
   * object now at the key, and the upload is then aborted, in the same transaction.
   */
  completeUpload(key: string, id: string, refs: readonly UploadedPartRef[], cond?: Conditional): Maybe<StoredObject | null> {
    return this.#write(() => {
      if (cond && !this.model.writeConditionHolds('completeMultipartUpload', key, cond)) {
        this.model.abortUpload(key, id);
        return null;
      }
      return this.model.completeUpload(key, id, refs);
    });
  }

  abortUpload(key: string, id: string): Maybe<void> {
    return this.#write(() => this.model.abortUpload(key, id));
  }


  // ---- reads only the S3 view makes ----------------------------------------------------------------

  uploadState(key: string, id: string): Maybe<'unknown' | 'active' | 'completed' | 'aborted'> {
    return this.#read(() => this.model.uploadState(key, id));
  }

  activeUploads(): Maybe<UploadView[]> {
    return this.#read(() => this.model.activeUploads());
  }

  activeUpload(key: string, id: string): Maybe<{ metadata: ObjectMetadata; initiated: number; parts: PartView[] } | undefined> {
    return this.#read(() => this.model.activeUpload(key, id));
  }

  /** Whether the bucket holds an object or an active upload (DeleteBucket refuses then). */
  holdsAnything(): Maybe<boolean> {
    return this.#read(() => this.model.list({ limit: 1, prefix: '' }).objects.length > 0 || this.model.activeUploads().length > 0);
  }

  // ---- test support ----------------------------------------------------------------------------------

  /** Empties the bucket (objects and uploads) and clears fault rules and the call log. */
  reset(): void {
    if (this.persistent) this.persistent.clear();
    else this.model.clear();
    this.support.clear();
  }

}
