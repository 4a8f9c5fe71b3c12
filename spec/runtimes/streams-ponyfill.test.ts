/**
 * web-streams-polyfill is loaded only where the runtime lacks byte streams (lib/streams.ts), and
 * never installed as a global. Each test loads the library afresh, so its detection runs again
 * under the globals the test sets up; a mock counts imports of the ponyfill.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ponyfill = { loads: 0 };

const NativeReadableStream = globalThis.ReadableStream;

async function freshBucket() {
  const { Bucket } = await import('../../lib/bucket.js');
  const bucket = new Bucket();
  await bucket.put('k', 'hello, streams');
  return bucket;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return new TextDecoder().decode(new Uint8Array(parts.flatMap((p) => [...p])));
}

beforeEach(() => {
  vi.resetModules();
  ponyfill.loads = 0;
  vi.doMock('web-streams-polyfill', async (importOriginal) => {
    ponyfill.loads++;
    return importOriginal();
  });
});
afterEach(() => {
  vi.doUnmock('web-streams-polyfill');
  vi.unstubAllGlobals();
});

describe('web-streams-polyfill', () => {
  it('is not loaded where the runtime has byte streams: bodies are the runtime own ReadableStream', async () => {
    const bucket = await freshBucket();
    const object = await bucket.get('k');
    expect(object!.body).toBeInstanceOf(NativeReadableStream);
    expect(await readAll(object!.body)).toBe('hello, streams');
    expect(ponyfill.loads).toBe(0);
  });

  it('is loaded where ReadableStream is missing, and bodies come from it without a global being set', async () => {
    vi.stubGlobal('ReadableStream', undefined);
    const bucket = await freshBucket();
    const object = await bucket.get('k');
    expect(ponyfill.loads).toBe(1);
    const { ReadableStream: Ponyfilled } =
      await vi.importActual<typeof import('web-streams-polyfill')>('web-streams-polyfill');
    expect(object!.body).toBeInstanceOf(Ponyfilled);
    expect(globalThis.ReadableStream).toBeUndefined();
    // A BYOB reader works on it, as on the runtime's own bodies.
    const reader = object!.body.getReader({ mode: 'byob' });
    const { value } = await reader.read(new Uint8Array(5));
    expect(new TextDecoder().decode(value)).toBe('hello');
    reader.releaseLock();
    expect(await readAll(object!.body)).toBe(', streams');
  });

  it('is loaded where ReadableStream has no byte streams, once for all gets', async () => {
    // A ReadableStream as runtimes had it before byte streams: `type: 'bytes'` is refused.
    const WithoutByteStreams = function (source?: UnderlyingSource, strategy?: QueuingStrategy) {
      if (source?.type === 'bytes') throw new RangeError('Invalid type is specified');
      return new NativeReadableStream(source, strategy);
    } as unknown as typeof ReadableStream;
    vi.stubGlobal('ReadableStream', WithoutByteStreams);
    const bucket = await freshBucket();
    const first = await bucket.get('k');
    const second = await bucket.get('k');
    expect(ponyfill.loads).toBe(1);
    expect(globalThis.ReadableStream).toBe(WithoutByteStreams);
    expect(first!.body).not.toBeInstanceOf(NativeReadableStream);
    expect(await readAll(first!.body)).toBe('hello, streams');
    // A body made with the ponyfill is a stream put accepts, and its length is known.
    await bucket.put('copy', second!.body);
    expect(await (await bucket.get('copy'))!.text()).toBe('hello, streams');
  });
});
