/**
 * Recorded HTTP exchanges, to take a client apart from the service it talks to:
 * - `recording(fetch)` passes requests through and keeps each one (bytes and all) with its answer;
 * - `replay(exchanges, fetch)` sends the recorded requests again, as they were signed, with no client
 *   in between (the service's own cost);
 * - `canned(exchanges)` is a fetch that answers each recorded request from the record at once (the
 *   client's own cost: what is left when the service costs nothing).
 */
export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * Node's fetch over the network. The SDK signs `host` and `content-length`, and fetch writes both
 * itself from the URL and the body (with the same values), refusing them as given headers.
 */
export const wireFetch: Fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.delete('host');
  headers.delete('content-length');
  return fetch(input, { ...init, headers });
};

export interface Exchange {
  method: string;
  url: string;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer> | undefined;
  status: number;
  responseHeaders: [string, string][];
  responseBody: Uint8Array<ArrayBuffer>;
}

export function recording(fetch: Fetch): { fetch: Fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const record: Fetch = async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? new Uint8Array(await req.arrayBuffer()) : undefined;
    const headers = [...req.headers];
    const res = await fetch(req.url, { method: req.method, headers, body });
    const responseBody = new Uint8Array(await res.arrayBuffer());
    exchanges.push({
      method: req.method,
      url: req.url,
      headers,
      body,
      status: res.status,
      responseHeaders: [...res.headers],
      responseBody,
    });
    return new Response(res.status === 204 || res.status === 304 ? null : responseBody, {
      status: res.status,
      headers: res.headers,
    });
  };
  return { fetch: record, exchanges };
}

/** Sends each recorded request once, in order, reading every answer whole; throws on an answer that differs in status. */
export async function replay(exchanges: readonly Exchange[], fetch: Fetch): Promise<void> {
  for (const x of exchanges) {
    const res = await fetch(x.url, { method: x.method, headers: x.headers, body: x.body });
    await res.arrayBuffer();
    if (res.status !== x.status) throw new Error(`replayed ${x.method} ${x.url}: ${res.status}, recorded ${x.status}`);
  }
}

/** A fetch answering each request from the recorded exchange with the same method and URL. */
export function canned(exchanges: readonly Exchange[]): Fetch {
  const byRequest = new Map(exchanges.map((x) => [`${x.method} ${x.url}`, x]));
  return async (input, init) => {
    const req = new Request(input, init);
    if (req.body) await req.arrayBuffer();
    const x = byRequest.get(`${req.method} ${req.url}`);
    if (!x) throw new Error(`nothing recorded for ${req.method} ${req.url}`);
    return new Response(x.status === 204 || x.status === 304 ? null : x.responseBody, {
      status: x.status,
      headers: x.responseHeaders,
    });
  };
}
