/**
 * Request bodies: authenticated before a byte is read, bounded by R2's 5 GiB − 5 MiB per upload
 * request (declared or streamed), and a body stream that fails rejects the fetch, as Node's fetch
 * does, instead of answering 500.
 */
import { describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';
import { rawSigned } from './raw.js';

const MAX = 5 * 1024 ** 3 - 5 * 1024 ** 2;
const aws = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });

/** A body that must never be read: reading it fails, and says so. */
function untouchable() {
  const state = { pulled: false };
  // highWaterMark 0: pulled only when someone reads, not to fill a queue ahead of time.
  const stream = new ReadableStream<Uint8Array>(
    {
      pull() {
        state.pulled = true;
        throw new Error('the body was read');
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

/** A presigned request (the payload is never hashed) with `body` streamed, as the HTTP server hands it over. */
async function presigned(
  path: string,
  query: Record<string, string>,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
) {
  const { target } = await rawSigned({ method: 'PUT', path, query, presign: true });
  return {
    request: new Request(`${ENDPOINT}${target}`, { method: 'PUT', body, headers, duplex: 'half' } as RequestInit),
    target,
  };
}

describe('body limits', () => {
  it(`a declared Content-Length over ${MAX} is EntityTooLarge before the body is read (PutObject, UploadPart, UploadPartCopy)`, async () => {
    const { api, photos } = setup();
    await photos.put('src', 'v');
    const upload = await photos.createMultipartUpload('big');
    for (const [query, extra] of [
      [{}, {}],
      [{ uploadId: upload.uploadId, partNumber: '1' }, {}],
      [{ uploadId: upload.uploadId, partNumber: '2' }, { 'x-amz-copy-source': '/photos/src' }],
    ] as const) {
      const { stream, state } = untouchable();
      const { request, target } = await presigned('/photos/big', query, stream, {
        'content-length': String(MAX + 1),
        ...extra,
      });
      // The copy source header must be signed: sign it as a header-auth request instead.
      const req =
        'x-amz-copy-source' in extra
          ? await aws.sign(`${ENDPOINT}${target.split('?')[0]}?uploadId=${upload.uploadId}&partNumber=2`, {
              method: 'PUT',
              headers: { ...extra, 'content-length': String(MAX + 1) },
              body: stream,
              duplex: 'half',
            } as never)
          : request;
      const e = await errorOf(await api.handle(req, 'x-amz-copy-source' in extra ? undefined : target));
      expect([query, e.status, e.code, e.message]).toEqual([
        query,
        400,
        'EntityTooLarge',
        'Your proposed upload exceeds the maximum allowed object size.',
      ]);
      expect(state.pulled).toBe(false);
    }
    expect(await photos.head('big')).toBeNull();
  });

  it('a body without Content-Length stops being read once it passes the cap', async () => {
    const { api, photos } = setup();
    const chunk = new Uint8Array(64 * 1024 * 1024);
    let sent = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const { request, target } = await presigned('/photos/big', {}, stream);
    expect(request.headers.get('content-length')).toBeNull();
    const e = await errorOf(await api.handle(request, target));
    expect(e).toMatchObject({ status: 400, code: 'EntityTooLarge' });
    expect(cancelled).toBe(true);
    // Read up to the first chunk past the cap, plus what the stream queued ahead: never the whole of an endless body.
    expect(sent).toBeLessThanOrEqual(MAX + 3 * chunk.byteLength);
    expect(await photos.head('big')).toBeNull();
  });

  it('a declared length at the cap is not refused early (the body is read)', async () => {
    const { api } = setup();
    const { stream, state } = untouchable();
    const { request, target } = await presigned('/photos/k', {}, stream, { 'content-length': String(MAX) });
    await expect(api.handle(request, target)).rejects.toThrow('fetch failed');
    expect(state.pulled).toBe(true);
  });
});

describe('authentication comes before the body', () => {
  it('a wrongly signed or unsigned PUT gets its auth error; its body is never read', async () => {
    const { api } = setup();
    const bad = untouchable();
    const wrong = await new AwsClient({ ...CREDENTIALS, secretAccessKey: 'wrong', service: 's3', region: 'auto' }).sign(
      `${ENDPOINT}/photos/k`,
      {
        method: 'PUT',
        body: bad.stream,
        duplex: 'half',
      } as never,
    );
    expect((await errorOf(await api.fetch(wrong))).code).toBe('SignatureDoesNotMatch');
    const anon = untouchable();
    expect(
      (
        await errorOf(
          await api.fetch(`${ENDPOINT}/photos/k`, { method: 'PUT', body: anon.stream, duplex: 'half' } as RequestInit),
        )
      ).message,
    ).toBe('Authorization');
    expect([bad.state.pulled, anon.state.pulled]).toEqual([false, false]);
  });
});

describe('api.fetch is a standard fetch', () => {
  it('bad arguments reject (never throw) with what the Request constructor raises', async () => {
    const { api } = setup();
    const boom = new Error('getter');
    const init = new Proxy(
      {},
      {
        get: () => {
          throw boom;
        },
      },
    ) as RequestInit;
    for (const [input, options] of [[123], [null], [{}], [`${ENDPOINT}/photos/k`, init]] as [unknown, RequestInit?][]) {
      let sync: unknown;
      let promise: Promise<Response> | undefined;
      try {
        promise = api.fetch(input as string, options);
      } catch (e) {
        sync = e;
      }
      expect(sync).toBeUndefined();
      let expected: unknown;
      try {
        new Request(input as string, options);
      } catch (e) {
        expected = e;
      }
      expect(expected).toBeDefined();
      if (options) await expect(promise).rejects.toBe(boom);
      else {
        await expect(promise).rejects.toBeInstanceOf(TypeError);
        await expect(promise).rejects.toThrow((expected as Error).message);
      }
    }
  });

  it("a request body that fails while read rejects with TypeError: fetch failed, its cause the stream's error", async () => {
    const { api, photos } = setup();
    const cause = new Error('disk gone');
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array([1, 2, 3]));
      },
      pull() {
        throw cause;
      },
    });
    const signed = await aws.sign(`${ENDPOINT}/photos/k`, { method: 'PUT', body: stream, duplex: 'half' } as never);
    const err = await api.fetch(signed).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('fetch failed');
    expect((err as TypeError).cause).toBe(cause);
    expect(await photos.head('k')).toBeNull();
  });
});
