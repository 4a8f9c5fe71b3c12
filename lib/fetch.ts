/**
 * What every `fetch` the library exports shares: a standard fetch never throws synchronously. Bad
 * arguments (`fetch(123)`, an options object whose getters throw) reject with the error the
 * platform's `Request` constructor raises, and a request body that fails while it is read rejects
 * with `TypeError: fetch failed` (its cause the stream's error), as Node's fetch does. A double's
 * `handle` answers every request it can read; only an unreadable request rejects.
 */

/** A request handler that may be told the request-target as the client wrote it (see `rawTarget`). */
export type Handler = (request: Request, target?: string) => Promise<Response>;

export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Latin-1 (a byte per character) without NUL, CR or LF: what an HTTP header value can carry (Fetch's header value rules). */
const CARRIABLE = /^[^\0\r\n\u0100-\u{10FFFF}]*$/u;

/** Whether a header value can carry `value` as it is. */
export const carriable = (value: string): boolean => CARRIABLE.test(value);

/**
 * The path and query of an absolute URL string exactly as written: `new URL` collapses dot segments
 * (`/a/../b`, `%2e%2e` too) and turns `\` into `/`, which would hand a double a different key than
 * the caller named. Undefined when the string is not `scheme://authority...`.
 */
export function rawTarget(url: string): string | undefined {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*([^#]*)/.exec(url);
  if (!m) return undefined;
  const target = m[1]!;
  return target === '' || target.startsWith('?') ? `/${target}` : target;
}

/** Raised while reading a request's body when its stream fails: the surface rejects instead of answering. */
export class BodyReadError extends TypeError {
  constructor(cause: unknown) {
    super('fetch failed', { cause });
    this.name = 'TypeError';
  }
}

/** Reads a body through `read`, turning a stream failure into `BodyReadError`. */
async function readingBody<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw e instanceof BodyReadError ? e : new BodyReadError(e);
  }
}

/**
 * A standard fetch over `handle`: builds the Request (a thrown error becomes a rejection), passes
 * the raw target of a string URL, and lets only `BodyReadError` reject.
 */
export function fetchOver(handle: Handler): Fetch {
  return (input, init) => {
    let request: Request;
    let target: string | undefined;
    try {
      request = input instanceof Request && init === undefined ? input : new Request(input, init);
      target = typeof input === 'string' ? rawTarget(input) : undefined;
    } catch (e) {
      return Promise.reject(e);
    }
    return handle(request, target);
  };
}

/**
 * A request body's chunks, read one by one and given up (the stream cancelled) as soon as they pass
 * `limit` bytes, so an endless or oversized stream costs at most the limit; `tooLarge` makes the
 * surface's own refusal. A stream failure rejects with `BodyReadError`. The chunks are the stream's
 * own: a caller that keeps them copies them.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  tooLarge: () => Error,
): Promise<{ chunks: Uint8Array[]; size: number }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (body === null) return { chunks, size };
  const reader = await readingBody(async () => body.getReader());
  for (;;) {
    const { done, value } = await readingBody(() => reader.read());
    if (done) return { chunks, size };
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
}
