/**
 * Every `fetch` the library exports is a standard fetch (lib/fetch.ts): it never throws, bad
 * arguments reject with exactly what the platform's `new Request(...)` raises, and a request body
 * stream that fails rejects with `TypeError: fetch failed` (its cause the stream's error), as Node's
 * fetch does. One row per double; a row names a request whose body the double reads once it has
 * accepted the caller, so the body-failure cases reach the read.
 */
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../lib/dns.js';
import { S3Api } from '../lib/s3.js';

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

interface Row {
  /** A fresh double's fetch, and a URL and headers under which it reads a POST/PUT body. */
  make(): { fetch: Fetch; url: string; headers: Record<string, string> };
}

const ROWS: [string, Row][] = [
  [
    'DnsApi',
    {
      make() {
        const api = new DnsApi({ zones: [{ name: 'example.com' }], credentials: [{ token: 'contract' }] });
        const url = `https://api.cloudflare.com/client/v4/zones/${api.zones[0]!.id}/dns_records`;
        return {
          fetch: api.fetch,
          url,
          headers: { authorization: 'Bearer contract', 'content-type': 'application/json' },
        };
      },
    },
  ],
  [
    'S3Api',
    {
      make() {
        // Without configured credentials any well-formed signature is accepted, so a header-auth
        // request with a fixed signature reaches the body read (a PutObject of UNSIGNED-PAYLOAD).
        const api = new S3Api();
        api.addBucket('contract');
        const amzDate = new Date()
          .toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d{3}/, '');
        const scope = `contract-key/${amzDate.slice(0, 8)}/auto/s3/aws4_request`;
        const authorization = `AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=${'0'.repeat(64)}`;
        return {
          fetch: api.fetch,
          url: 'https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com/contract/key.txt',
          headers: { authorization, 'x-amz-date': amzDate, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
        };
      },
    },
  ],
];

/** What the platform raises for these arguments (undefined when it raises nothing). */
function requestError(input: unknown, init?: unknown): unknown {
  try {
    new Request(input as RequestInfo, init as RequestInit);
    return undefined;
  } catch (e) {
    return e;
  }
}

/** Calls `fetch` and requires a promise back (a synchronous throw fails the test), then its rejection. */
async function rejectionOf(fetch: Fetch, input: unknown, init?: unknown): Promise<unknown> {
  let promise: Promise<Response>;
  try {
    promise = fetch(input as RequestInfo, init as RequestInit);
  } catch (e) {
    throw new Error(`fetch threw synchronously instead of rejecting: ${String(e)}`, { cause: e });
  }
  expect(promise).toBeInstanceOf(Promise);
  return promise.then(
    (res) => {
      throw new Error(`fetch answered ${res.status} instead of rejecting`);
    },
    (e: unknown) => e,
  );
}

/** The same class, name and message as the platform's error (the very object, for a thrown value). */
function expectSameError(got: unknown, want: unknown) {
  expect(want).toBeDefined();
  expect(got).toBeInstanceOf((want as object).constructor);
  expect((got as Error).name).toBe((want as Error).name);
  expect((got as Error).message).toBe((want as Error).message);
}

/** A body stream that fails when read, with `error`. */
const failingStream = (error: Error) =>
  new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(error);
    },
  });

describe.each(ROWS)('%s#fetch is a standard fetch', (_name, row) => {
  const badInputs: [string, unknown][] = [
    ['a number', 123],
    ['null', null],
    ['an empty object', {}],
    ['a relative URL', '/client/v4/user'],
    ['a URL with a bad scheme and spaces', 'ht tp://x'],
  ];
  for (const [what, input] of badInputs) {
    it(`rejects ${what} as input with the platform's error`, async () => {
      const { fetch } = row.make();
      expectSameError(await rejectionOf(fetch, input), requestError(input));
    });
  }

  it('rejects an options object whose getters throw with the thrown error itself', async () => {
    const { fetch, url } = row.make();
    const thrown = new Error('getter says no');
    const init = new Proxy(
      {},
      {
        get: () => {
          throw thrown;
        },
        has: () => true,
        ownKeys: () => ['method', 'body'],
        getOwnPropertyDescriptor: () => ({ configurable: true, enumerable: true, value: undefined }),
      },
    );
    expect(requestError(url, init)).toBe(thrown);
    expect(await rejectionOf(fetch, url, init)).toBe(thrown);
    // A plain string URL and the same proxy reached through an options object with a throwing getter.
    const getter = {
      get method(): string {
        throw thrown;
      },
    };
    expect(await rejectionOf(fetch, url, getter)).toBe(thrown);
  });

  const badOptions: [string, (headers: Record<string, string>) => RequestInit][] = [
    ['a GET with a body', () => ({ body: '{}' })],
    ['a HEAD with a body', () => ({ method: 'HEAD', body: '{}' })],
    ['a method that is not a token', (headers) => ({ method: 'PO ST', headers, body: '{}' })],
    ['a forbidden method', (headers) => ({ method: 'TRACE', headers })],
    [
      'a header name that is not a token',
      (headers) => ({ method: 'POST', headers: { ...headers, 'bad header': 'x' }, body: '{}' }),
    ],
    [
      'a header value with a newline',
      (headers) => ({ method: 'POST', headers: { ...headers, 'x-a': 'a\nb' }, body: '{}' }),
    ],
    [
      'a signal that is not an AbortSignal',
      (headers) => ({ method: 'POST', headers, body: '{}', signal: 'soon' as unknown as AbortSignal }),
    ],
    ['an unknown mode', (headers) => ({ method: 'POST', headers, body: '{}', mode: 'sideways' as RequestMode })],
    ['a stream body without duplex', (headers) => ({ method: 'POST', headers, body: new ReadableStream() })],
  ];
  for (const [what, make] of badOptions) {
    it(`rejects ${what} with the platform's error`, async () => {
      const { fetch, url, headers } = row.make();
      const init = make(headers);
      expectSameError(await rejectionOf(fetch, url, init), requestError(url, init));
      // A URL object takes the same path as its string.
      expectSameError(await rejectionOf(fetch, new URL(url), init), requestError(new URL(url), init));
    });
  }

  it('rejects with TypeError "fetch failed" (cause: the stream error) when the body stream fails', async () => {
    const { fetch, url, headers } = row.make();
    const boom = new Error('disk went away');
    const init = { method: 'POST', headers, body: failingStream(boom), duplex: 'half' } as RequestInit;
    const e = await rejectionOf(fetch, url, init);
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toBe('fetch failed');
    expect((e as Error).cause).toBe(boom);
    // The same through a Request object.
    const viaRequest = await rejectionOf(
      fetch,
      new Request(url, { method: 'POST', headers, body: failingStream(boom), duplex: 'half' } as RequestInit),
    );
    expect((viaRequest as Error).message).toBe('fetch failed');
    expect((viaRequest as Error).cause).toBe(boom);
  });

  it('still answers good requests on every path (string, URL, Request, stream body)', async () => {
    const { fetch, url, headers } = row.make();
    for (const res of [
      await fetch(url, { headers }),
      await fetch(new URL(url), { headers }),
      await fetch(new Request(url, { headers })),
      await fetch(url, {
        method: 'POST',
        headers,
        body: new ReadableStream({ start: (c) => c.close() }),
        duplex: 'half',
      } as RequestInit),
    ]) {
      expect(res).toBeInstanceOf(Response);
      expect(res.status).toBeLessThan(500);
    }
  });
});
