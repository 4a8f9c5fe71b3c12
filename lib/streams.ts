/**
 * The ReadableStream class object bodies are made with. Bodies are byte streams (`type: 'bytes'`,
 * so BYOB readers work as on the runtime's own bodies). Node, workerd, Chromium and Vitest's jsdom,
 * happy-dom and edge-runtime environments all have them; a runtime without ReadableStream, or
 * whose ReadableStream has no byte streams (browsers shipped ReadableStream years before
 * `type: 'bytes'`), gets `web-streams-polyfill`'s ponyfill instead, imported on first need. It is never installed as a
 * global: the caller's own streams and globals stay what their runtime made them.
 */
type ReadableStreamClass = typeof ReadableStream;

/** The runtime's class when it can make a byte stream that hands out a BYOB reader. */
function nativeByteStreams(): ReadableStreamClass | undefined {
  if (typeof ReadableStream !== 'function') return undefined;
  try {
    new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' }).releaseLock();
    return ReadableStream;
  } catch {
    return undefined;
  }
}

let streams: ReadableStreamClass | undefined;
let detected = false;
let loading: Promise<void> | undefined;

/**
 * Nothing when byte streams are at hand (the common case costs no await); else a promise that
 * settles once the ponyfill is loaded. Called by every read that can hand out a body, before it does.
 */
export function byteStreamsReady(): Promise<void> | undefined {
  if (!detected) {
    streams = nativeByteStreams();
    detected = true;
  }
  if (streams) return undefined;
  return (loading ??= import('web-streams-polyfill').then((m) => {
    streams = m.ReadableStream as unknown as ReadableStreamClass;
  }));
}

/** The class to make a body with; byteStreamsReady() has settled before any body is made. */
export function byteStreamClass(): ReadableStreamClass {
  if (!streams) throw new Error('edge-doubles: a body was made before byteStreamsReady() settled');
  return streams;
}

/** A ReadableStream of the runtime, or one this library made with the ponyfill (a body put back). */
export function isReadableStream(v: unknown): v is ReadableStream {
  return (
    (typeof ReadableStream !== 'undefined' && v instanceof ReadableStream) ||
    (streams !== undefined && v instanceof streams)
  );
}
