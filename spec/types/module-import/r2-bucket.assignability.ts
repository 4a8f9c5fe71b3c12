/**
 * Type test (spec/types/module-import/tsconfig*.json): a Worker project that imports workers-types
 * as a module beside the DOM lib and Node's types (as Vitest brings them). There, the module's
 * Headers, ReadableStream and Blob are classes of their own, unrelated to the DOM's globals that
 * the double's sources see. A failure here is a compile error, not a test failure.
 */
import type * as W from '@cloudflare/workers-types';
import type {
  R2Bucket,
  R2Object,
  R2ObjectBody,
  R2Objects,
  R2MultipartUpload,
  R2UploadedPart,
  R2Checksums,
} from '@cloudflare/workers-types';
import { Bucket } from '../../../lib/bucket.js';

// The reported case: the binding typed as the module's R2Bucket.
export const env: { FILES: R2Bucket } = { FILES: new Bucket() };
export const configured: R2Bucket = new Bucket({
  defaultStorageClass: 'InfrequentAccess',
  compatibilityDate: '2022-01-01',
});

export async function results(b: Bucket): Promise<void> {
  const head: R2Object | null = await b.head('k');
  const body: R2ObjectBody | null = await b.get('k');
  const conditional: R2ObjectBody | R2Object | null = await b.get('k', { onlyIf: { etagMatches: 'x' } });
  const put: R2Object = await b.put('k', 'v');
  const putIf: R2Object | null = await b.put('k', 'v', { onlyIf: { etagMatches: 'x' } });
  const list: R2Objects = await b.list({ include: ['httpMetadata'] });
  const upload: R2MultipartUpload = await b.createMultipartUpload('k');
  const resumed: R2MultipartUpload = b.resumeMultipartUpload('k', upload.uploadId);
  const part: R2UploadedPart = await resumed.uploadPart(1, new Uint8Array(1));
  const done: R2Object = await upload.complete([part]);
  const checksums: R2Checksums = done.checksums;
  void [head, body, conditional, put, putIf, list, checksums];
}

/** Either kind of Headers, Blob and ReadableStream goes into the double's own methods. */
export async function argumentsOfBothKinds(
  b: Bucket,
  w: { headers: W.Headers; blob: W.Blob; stream: W.ReadableStream },
  dom: { headers: Headers; blob: Blob; stream: ReadableStream<Uint8Array> },
): Promise<void> {
  for (const { headers, blob, stream } of [w, dom]) {
    await b.put('k', blob, { httpMetadata: headers, onlyIf: headers });
    await b.put('k', stream);
    await b.get('k', { onlyIf: headers, range: headers });
    const upload = await b.createMultipartUpload('k', { httpMetadata: headers });
    await upload.uploadPart(1, blob);
    await upload.uploadPart(2, stream);
    (await b.head('k'))!.writeHttpMetadata(headers);
  }
}

/** The results keep their DOM types for a user who reads them as such. */
export async function resultsAsTheDomTypesThem(b: Bucket): Promise<void> {
  const got = (await b.get('k'))!;
  const stream: ReadableStream<Uint8Array> = got.body;
  const chunk: Uint8Array | undefined = (await got.body.getReader().read()).value;
  const blob: Blob = await got.blob();
  // @ts-expect-error: the body is a stream of bytes, not `any`.
  const notBytes: ReadableStream<string> = got.body;
  // @ts-expect-error: a Blob, not `any`.
  const notBlob: string = await got.blob();
  void [stream, chunk, blob, notBytes, notBlob];
}
