/**
 * `Bucket`: the surface of the R2 double. Each method converts its arguments exactly as workerd's
 * binding does (same errors, same order), hands plain values to the model, and shapes what comes
 * back as the runtime does.
 *
 * workerd works in two phases and the order of errors follows from it: first every argument and
 * every field of an options struct is type-converted (TypeErrors; see invoke.ts for whether they
 * throw or reject), then the method body interprets them (quoted etags, header parsing, ranges,
 * hash lengths, SSE-C key format, stream length) and calls R2. Each method below is written as
 * those two phases.
 */
import { systemClock, type Clock } from '../clock.js';
import { checkSsecKey, convertSsecKey, ssecKeyMd5 } from './ssec.js';
import { convertConditional, unwrapConditional, type Conditional } from './conditional.js';
import { convertHashFields, requestedChecksum, type RequestedChecksum } from './checksums.js';
import { optionalStringField, structOrEmpty, toInt32, toStr } from './coerce.js';
import { fieldTypeError, parameterTypeError, putValueTypeError, r2Error } from './errors.js';
import { invoker, throwsSynchronously, type Invoke } from './invoke.js';
import { NO_CUSTOM_FIELDS, parseCustomMetadata, parseHttpMetadata } from './metadata.js';
import { BucketModel } from './model.js';
import { R2MultipartUpload } from './multipart.js';
import { checkRange, convertRange } from './range.js';
import { GetResult, HeadResult, WHOLE_OBJECT, WRITTEN_OBJECT } from './results.js';
import { acceptValue, checkStreamLength, readValue, type Body } from './values.js';
import type { ObjectMetadata } from './stored.js';
import type {
  R2BucketLike,
  R2GetOptions,
  R2ListOptions,
  R2MultipartOptions,
  R2ObjectsLike,
  R2PutOptions,
  R2PutValue,
} from './types.js';

export interface BucketOptions {
  /** The storage class of objects written without one. Default 'Standard'. */
  defaultStorageClass?: string;
  /**
   * The Worker's compatibility date. Before 2022-08-04 `list` ignores `include`; before 2022-10-31
   * argument-conversion errors are thrown synchronously. Default: today's behaviour.
   */
  compatibilityDate?: string;
  /** The Worker's compatibility flags (`r2_list_honor_include` or `store_list_honor_include`, ...). */
  compatibilityFlags?: readonly string[];
  /** "Now" in epoch ms, read at each operation. Default `Date.now()`, so Vitest's fake timers apply. */
  clock?: Clock;
}

const INCLUDE_DATE = '2022-08-04';
const INCLUDE_FLAGS = ['r2_list_honor_include', 'store_list_honor_include'];

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

export class Bucket implements R2BucketLike {
  readonly #model: BucketModel;
  readonly #invoke: Invoke;
  readonly #defaultStorageClass: string;
  readonly #honorsInclude: boolean;

  constructor(options: BucketOptions = {}) {
    const date = options.compatibilityDate;
    const flags = options.compatibilityFlags ?? [];
    this.#invoke = invoker(throwsSynchronously(date, flags));
    this.#model = new BucketModel(options.clock ?? systemClock);
    this.#defaultStorageClass = options.defaultStorageClass ?? 'Standard';
    this.#honorsInclude = date === undefined || date >= INCLUDE_DATE || flags.some((f) => INCLUDE_FLAGS.includes(f));
  }

  head(key: string): Promise<HeadResult | null> {
    const given = arguments.length;
    return this.#invoke(
      () => {
        if (given < 1) throw parameterTypeError('head', 'R2Bucket', 1, 'string');
        return toStr(key);
      },
      (name) => {
        const object = this.#model.head(name);
        return object ? new HeadResult(object, WHOLE_OBJECT) : null;
      },
    );
  }

  get(key: string, options: R2GetOptions & { onlyIf: NonNullable<R2GetOptions['onlyIf']> }): Promise<GetResult | HeadResult | null>;
  get(key: string, options?: R2GetOptions): Promise<GetResult | null>;
  get(key: string, options?: R2GetOptions): Promise<GetResult | HeadResult | null> {
    const given = arguments.length;
    return this.#invoke(
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
        const outcome = this.#model.get(name, cond, range, md5OfKey(ssec));
        switch (outcome.kind) {
          case 'missing':
            return null;
          case 'precondition-failed':
            return new HeadResult(outcome.object, WHOLE_OBJECT);
          case 'found':
            return new GetResult(outcome.object, { range: outcome.range, http: true, custom: true });
        }
      },
    );
  }

  put(key: string, value: R2PutValue, options: R2PutOptions & { onlyIf: NonNullable<R2PutOptions['onlyIf']> }): Promise<HeadResult | null>;
  put(key: string, value: R2PutValue, options?: R2PutOptions): Promise<HeadResult>;
  put(key: string, value: R2PutValue, options?: R2PutOptions): Promise<HeadResult | null> {
    const given = arguments.length;
    return this.#invoke(
      () => {
        if (given < 1) throw parameterTypeError('put', 'R2Bucket', 1, 'string');
        const name = toStr(key);
        // The value is copied here, synchronously: a caller mutating its buffer later changes nothing.
        const accepted = given < 2 ? undefined : acceptValue(value, true);
        if (!accepted) throw putValueTypeError();
        const o = structOrEmpty(options, () => parameterTypeError('put', 'R2Bucket', 3, 'PutOptions'));
        return {
          name,
          accepted,
          onlyIf: convertConditional(o.onlyIf, 'PutOptions'),
          ...convertMetadata(o, 'PutOptions'),
          hashes: convertHashFields(o),
          storageClass: storageClassOf(o, this.#defaultStorageClass),
          ssecKey: convertSsecKey(o.ssecKey),
        };
      },
      (a) => {
        const cond = a.onlyIf && unwrapConditional(a.onlyIf);
        const checksum = requestedChecksum(a.hashes);
        const ssec = checkSsecKey(a.ssecKey);
        checkStreamLength(a.accepted);
        const metadata = { http: a.http, custom: a.custom, storageClass: a.storageClass, ssecKeyMd5: md5OfKey(ssec) };
        // Bytes already copied are stored in this same turn; Blobs and streams are read first.
        const read = readValue(a.accepted);
        return read instanceof Promise
          ? read.then((body) => this.#store(a.name, body, metadata, checksum, cond))
          : this.#store(a.name, read, metadata, checksum, cond);
      },
    );
  }

  #store(
    key: string,
    body: Body,
    metadata: ObjectMetadata,
    checksum: RequestedChecksum | undefined,
    cond: Conditional | undefined,
  ): HeadResult | null {
    const stored = this.#model.put(key, body, metadata, checksum, cond);
    return stored && new HeadResult(stored, WRITTEN_OBJECT);
  }

  delete(keys: string | string[]): Promise<void> {
    const given = arguments.length;
    return this.#invoke(
      () => {
        if (given < 1) throw parameterTypeError('delete', 'R2Bucket', 1, 'string or Array');
        return Array.isArray(keys) ? keys.map(toStr) : [toStr(keys)];
      },
      (names) => this.#model.delete(names),
    );
  }

  list(options?: R2ListOptions): Promise<R2ObjectsLike> {
    return this.#invoke(
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
      ({ limit, prefix, cursor, delimiter, startAfter, include }) => {
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
        const page = this.#model.list({ limit: pageSize, prefix: prefix ?? '', cursor, delimiter, startAfter });
        const objects = page.objects.map((obj) => new HeadResult(obj, { http, custom }));
        const { delimitedPrefixes } = page;
        return page.cursor === undefined
          ? { objects, truncated: false, delimitedPrefixes }
          : { objects, truncated: true, cursor: page.cursor, delimitedPrefixes };
      },
    );
  }

  createMultipartUpload(key: string, options?: R2MultipartOptions): Promise<R2MultipartUpload> {
    const given = arguments.length;
    return this.#invoke(
      () => {
        if (given < 1) throw parameterTypeError('createMultipartUpload', 'R2Bucket', 1, 'string');
        const name = toStr(key);
        const o = structOrEmpty(options, () => parameterTypeError('createMultipartUpload', 'R2Bucket', 2, 'MultipartOptions'));
        return {
          name,
          ...convertMetadata(o, 'MultipartOptions'),
          storageClass: storageClassOf(o, this.#defaultStorageClass),
          ssecKey: convertSsecKey(o.ssecKey),
        };
      },
      (a) => {
        const ssec = checkSsecKey(a.ssecKey);
        const metadata = { http: a.http, custom: a.custom, storageClass: a.storageClass, ssecKeyMd5: md5OfKey(ssec) };
        const id = this.#model.createUpload(a.name, metadata);
        return new R2MultipartUpload(this.#model, this.#invoke, a.name, id);
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
    return new R2MultipartUpload(this.#model, this.#invoke, name, toStr(uploadId));
  }
}
