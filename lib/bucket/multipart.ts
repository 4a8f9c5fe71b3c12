/**
 * The multipart upload handle. It is only a (key, uploadId) pair, as in workerd: every check
 * happens in R2 (the model) when a method is called, so a handle from `resumeMultipartUpload` with a
 * bogus id is accepted and refused later.
 */
import { isObjectLike, structOrEmpty, toInt32, toStr } from './coerce.js';
import { parameterTypeError, partNumberRange, partValueTypeError } from './errors.js';
import type { Invoke } from './invoke.js';
import type { BucketLayer } from './layer.js';
import type { UploadedPartRef } from './model.js';
import { HeadResult, WRITTEN_OBJECT } from './results.js';
import type { StoredObject } from './stored.js';
import { checkSsecKey, convertSsecKey } from './ssec.js';
import type { R2MultipartUploadLike, R2UploadedPart, R2UploadPartOptions, R2UploadPartValue } from './types.js';
import { acceptValue, checkStreamLength, readValue } from './values.js';
import { tagClass, untag } from './class-tags.js';

// Kept off the instance: the handle's only own properties are `key` and `uploadId`.
const owners = new WeakMap<R2MultipartUpload, { layer: BucketLayer; invoke: Invoke; tagged: boolean }>();

function checkPartNumber(n: number): void {
  if (n < 1 || n > 10000) throw partNumberRange(n);
}

/** One element of `complete`'s list, converted as workerd converts an UploadedPart struct. */
function convertPart(p: unknown, index: number): UploadedPartRef {
  if (p === undefined || p === null) {
    // The runtime names the struct by its mangled C++ type here.
    throw new TypeError(
      'Cannot initialize N7workerd3api11public_beta17R2MultipartUpload12UploadedPartE with required members from an undefined or null value.',
    );
  }
  if (!isObjectLike(p)) {
    throw new TypeError(`Incorrect type for array element ${index}: the provided value is not of type 'UploadedPart'.`);
  }
  return { partNumber: toInt32(p.partNumber), etag: p.etag === undefined ? undefined : toStr(p.etag) };
}

/** Named as the runtime's class (its `constructor.name`). */
export class R2MultipartUpload implements R2MultipartUploadLike {
  declare readonly key: string;
  declare readonly uploadId: string;

  /** @internal handles are made by the bucket */
  constructor(layer: BucketLayer, invoke: Invoke, key: string, uploadId: string, tagged = true) {
    // In the runtime's order: Object.keys(handle) is ['uploadId', 'key'].
    Object.defineProperties(this, {
      uploadId: { value: uploadId, enumerable: true, configurable: true },
      key: { value: key, enumerable: true, configurable: true },
    });
    owners.set(this, { layer, invoke, tagged });
    if (!tagged) untag(this);
  }

  uploadPart(partNumber: number, value: R2UploadPartValue, options?: R2UploadPartOptions): Promise<R2UploadedPart> {
    const { layer, invoke } = owners.get(this)!;
    const given = arguments.length;
    return invoke(
      'uploadPart',
      this.key,
      { uploadId: this.uploadId, partNumber, options },
      () => {
        // A missing argument is refused; an explicit undefined converts (to 0, refused later as a part number).
        if (given < 1) throw parameterTypeError('uploadPart', 'R2MultipartUpload', 1, 'integer');
        const n = toInt32(partNumber);
        const accepted = acceptValue(value, false);
        if (!accepted) throw partValueTypeError();
        const o = structOrEmpty(options, () =>
          parameterTypeError('uploadPart', 'R2MultipartUpload', 3, 'UploadPartOptions'),
        );
        return { n, accepted, ssecKey: convertSsecKey(o.ssecKey) };
      },
      async ({ n, accepted, ssecKey }) => {
        checkPartNumber(n);
        checkSsecKey(ssecKey);
        checkStreamLength(accepted);
        const read = readValue(accepted);
        const body = read instanceof Promise ? await read : read;
        const stored = layer.uploadPart(this.key, this.uploadId, n, body);
        const etag = stored instanceof Promise ? await stored : stored;
        return { partNumber: n, etag };
      },
      value,
    );
  }

  abort(): Promise<void> {
    const { layer, invoke } = owners.get(this)!;
    return invoke(
      'abortMultipartUpload',
      this.key,
      { uploadId: this.uploadId },
      () => undefined,
      () => layer.abortUpload(this.key, this.uploadId),
    );
  }

  complete(uploadedParts: R2UploadedPart[]): Promise<HeadResult> {
    const { layer, invoke, tagged } = owners.get(this)!;
    return invoke(
      'completeMultipartUpload',
      this.key,
      { uploadId: this.uploadId, parts: uploadedParts },
      () => {
        if (!Array.isArray(uploadedParts)) throw parameterTypeError('complete', 'R2MultipartUpload', 1, 'Array');
        return uploadedParts.map(convertPart);
      },
      (refs) => {
        for (const r of refs) checkPartNumber(r.partNumber);
        const shape = (completed: StoredObject | null) => {
          const object = completed!; // null only for a condition, which the binding never gives
          const result = new HeadResult(object, WRITTEN_OBJECT);
          if (!tagged) {
            untag(result);
            untag(result.checksums, true);
          }
          return result;
        };
        const object = layer.completeUpload(this.key, this.uploadId, refs);
        return object instanceof Promise ? object.then(shape) : shape(object);
      },
    );
  }
}

tagClass(R2MultipartUpload, 'R2MultipartUpload');
