/**
 * Type test, run by `npm run typecheck` (part of `npm test`): the double is assignable to the
 * runtime's own types. A failure here is a compile error, not a test failure.
 */
import { Bucket, type R2MultipartUploadLike, type R2ObjectBodyLike, type R2ObjectLike } from '../../lib/bucket.js';

const bucket: R2Bucket = new Bucket();
const configured: R2Bucket = new Bucket({
  defaultStorageClass: 'InfrequentAccess',
  compatibilityDate: '2022-01-01',
  clock: () => 0,
});

export async function results(b: Bucket): Promise<void> {
  const head: R2Object | null = await b.head('k');
  const body: R2ObjectBody | null = await b.get('k');
  const conditional: R2ObjectBody | R2Object | null = await b.get('k', { onlyIf: { etagMatches: 'x' } });
  const put: R2Object = await b.put('k', 'v');
  const putIf: R2Object | null = await b.put('k', 'v', { onlyIf: new Headers() });
  const list: R2Objects = await b.list({ include: ['httpMetadata'] });
  const upload: R2MultipartUpload = await b.createMultipartUpload('k');
  const resumed: R2MultipartUpload = b.resumeMultipartUpload('k', upload.uploadId);
  const part: R2UploadedPart = await resumed.uploadPart(1, new Uint8Array(1));
  const done: R2Object = await upload.complete([part]);
  const checksums: R2Checksums = done.checksums;
  void [head, body, conditional, put, putIf, list, checksums, bucket, configured];
}

/** The runtime's Headers, Blob and ReadableStream go into the double's own methods. */
export async function runtimeArguments(b: Bucket, headers: Headers, blob: Blob, stream: ReadableStream): Promise<void> {
  await b.put('k', blob, { httpMetadata: headers, onlyIf: headers });
  await b.put('k', stream);
  await b.get('k', { onlyIf: headers, range: headers });
  const upload = await b.createMultipartUpload('k', { httpMetadata: headers });
  await upload.uploadPart(1, blob);
  await upload.uploadPart(2, stream);
  (await b.head('k'))!.writeHttpMetadata(headers);
  const got = (await b.get('k'))!;
  const body: ReadableStream = got.body;
  const byob: ReadableStreamBYOBReader = got.body.getReader({ mode: 'byob' });
  const fromBlob: Blob = await got.blob();
  void [body, byob, fromBlob];
}

/** And back: the runtime's own results fit the double's result types (a helper typed with them takes either). */
export function runtimeResults(
  o: R2Object,
  body: R2ObjectBody,
  upload: R2MultipartUpload,
): [R2ObjectLike, R2ObjectBodyLike, R2MultipartUploadLike] {
  return [o, body, upload];
}
