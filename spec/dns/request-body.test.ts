/**
 * Request bodies cost at most the API's limit (lib/dns/body.ts): a declared oversized body is refused
 * before a byte is read, a streamed one as soon as it passes the limit, with the edge's 413 page;
 * credentials are judged before any body is read.
 */
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY } from '../../lib/dns/body.js';
import { batchBodyLimit, IMPORT_BODY_LIMIT, recordBodyLimit } from '../../lib/dns/routes.js';
import { moreCharactersThan } from '../../lib/dns/record-rules.js';
import { isQuotedSequence } from '../../lib/dns/record-types.js';
import { setup, TOKEN } from './helpers.js';

const MiB = 1024 * 1024;

/** A stream that fails the test's expectations if it is ever read. */
function untouchable() {
  const seen = { pulled: false };
  // No high-water mark: the stream is pulled only when someone reads it.
  const stream = new ReadableStream<Uint8Array>(
    {
      pull() {
        seen.pulled = true;
        throw new Error('the body was read');
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** An endless stream of 1 MiB chunks (one reused buffer), counting what was pulled. */
function endless() {
  const chunk = new Uint8Array(MiB).fill(0x20);
  const seen = { bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

const streamed = (stream: ReadableStream, headers: Record<string, string>) =>
  ({ method: 'POST', headers, body: stream, duplex: 'half' }) as RequestInit;

async function expectTooLarge(res: Response) {
  expect(res.status).toBe(413);
  expect(res.headers.get('content-type')).toBe('text/html');
  expect(await res.text()).toContain('<title>413 Request Entity Too Large</title>');
}

describe('request body size', () => {
  it('is bounded at 100 MiB', () => {
    expect(MAX_REQUEST_BODY).toBe(100 * MiB);
  });

  it('a declared content-length over the limit is refused with the 413 page before the body is read, even without credentials', async () => {
    const { api, url } = setup();
    for (const auth of [{ authorization: `Bearer ${TOKEN}` }, {}] as Record<string, string>[]) {
      const { stream, seen } = untouchable();
      const headers = { ...auth, 'content-type': 'application/json', 'content-length': String(MAX_REQUEST_BODY + 1) };
      await expectTooLarge(await api.handle(new Request(url(), streamed(stream, headers))));
      expect(seen.pulled).toBe(false);
    }
    expect(api.records('example.com')).toEqual([]);
  });

  it('a streamed body is read only until it passes the limit, then refused and cancelled', async () => {
    const { api, url } = setup();
    const { stream, seen } = endless();
    const res = await api.fetch(
      url(),
      streamed(stream, { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }),
    );
    await expectTooLarge(res);
    expect(seen.cancelled).toBe(true);
    // The stream may run a few chunks ahead of the reader (its queue), never far past the limit.
    expect(seen.bytes).toBeLessThanOrEqual(MAX_REQUEST_BODY + 4 * MiB);
  });

  it('a string body over the limit is refused like the content-length a fetch would send for it', async () => {
    const { api, call } = setup();
    const res = await call('POST', '', 'x'.repeat(MAX_REQUEST_BODY + 1));
    expect(res.status).toBe(413);
    expect(res.text).toContain('413 Request Entity Too Large');
    // At the limit the body is judged as usual (here: not JSON).
    expect((await call('POST', '', ' '.repeat(10))).body.errors[0].code).toBe(9207);
    expect(api.records('example.com')).toEqual([]);
  });

  it('credentials are judged before the body is read: a stream that would throw is never touched', async () => {
    const { api, url } = setup();
    const cases: [Record<string, string>, number, number][] = [
      [{}, 400, 9106],
      [{ authorization: 'Bearer wrong-token' }, 403, 9109],
      [{ authorization: 'Bearer' }, 400, 6003],
    ];
    for (const [auth, status, code] of cases) {
      const { stream, seen } = untouchable();
      const res = await api.fetch(url(), streamed(stream, { ...auth, 'content-type': 'application/json' }));
      expect(res.status).toBe(status);
      expect((await res.json()).errors[0].code).toBe(code);
      expect(seen.pulled).toBe(false);
    }
  });

  it('an import reads its multipart body within the limit too', async () => {
    const { api, zoneId } = setup();
    const form = new FormData();
    form.set('file', new Blob(['www 300 IN A 192.0.2.1\n']), 'zone.txt');
    const ok = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: form,
    });
    expect(ok.status).toBe(200);
    expect(api.records(zoneId).map((r) => r.name)).toEqual(['www.example.com']);
    const { stream } = endless();
    const big = await api.fetch(
      `https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records/import`,
      streamed(stream, { authorization: `Bearer ${TOKEN}`, 'content-type': 'multipart/form-data; boundary=x' }),
    );
    await expectTooLarge(big);
  });
});

/** A body of exactly `size` bytes: a JSON object whose `comment` pads it (never valid past a record's limits). */
function paddedRecord(size: number): string {
  const head = '{"type":"A","name":"www","content":"192.0.2.1","comment":"';
  return `${head}${'c'.repeat(size - head.length - 2)}"}`;
}

describe('each DNS route refuses a body over the largest request it can accept, before reading it (issue 26, point 12)', () => {
  const free = { records: 200, tags: 0, commentLength: 100, batch: 200, minTtl: 60 };
  const enterprise = { records: 1_000_000, tags: 500, commentLength: 500, batch: 3500, minTtl: 30 };

  it("has bounds from the limits the routes enforce: a record, a batch of the zone's size, a zone file", () => {
    expect(recordBodyLimit(free)).toBe(64 * 1024);
    expect(recordBodyLimit(enterprise)).toBe(64 * 1024 + 500 * 512);
    expect(batchBodyLimit(free)).toBe(200 * 64 * 1024 + 64 * 1024);
    // A paid plan's batch bound passes the gateway's: the gateway's 100 MiB is then the limit.
    expect(batchBodyLimit(enterprise)).toBeGreaterThan(MAX_REQUEST_BODY);
    expect(IMPORT_BODY_LIMIT).toBe(320 * 1024);
  });

  it("a declared content-length over a record's bound gets 413 and the stream is never pulled; at the bound it is judged", async () => {
    const { api, url } = setup({}, { plan: 'free' });
    const { stream, seen } = untouchable();
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'content-length': String(60 * 1000 * 1000),
    };
    await expectTooLarge(await api.handle(new Request(url(), streamed(stream, headers))));
    expect(seen.pulled).toBe(false);
    const bound = recordBodyLimit(free);
    const at = await api.fetch(url(), {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: paddedRecord(bound),
    });
    expect([at.status, (await at.json()).errors[0].code]).toEqual([400, 9302]);
    const past = await api.fetch(url(), {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: paddedRecord(bound + 1),
    });
    await expectTooLarge(past);
    expect(api.records('example.com')).toEqual([]);
  });

  it("a streamed body without a length is read only until it passes the route's bound, then cancelled", async () => {
    const { api, url, zoneId } = setup({}, { plan: 'free' });
    const [record] = api.seed(zoneId, [{ type: 'A', name: 'www', content: '192.0.2.1' }]);
    const routes = [
      ['POST', '', recordBodyLimit(free)],
      ['POST', '/batch', batchBodyLimit(free)],
      ['PATCH', `/${record!.id}`, recordBodyLimit(free)],
    ] as const;
    for (const [method, path, bound] of routes) {
      const { stream, seen } = endless();
      const res = await api.fetch(url(path), {
        ...streamed(stream, { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }),
        method,
      });
      await expectTooLarge(res);
      expect(seen.cancelled).toBe(true);
      expect(seen.bytes, path).toBeLessThanOrEqual(bound + 4 * MiB);
      expect(seen.bytes, path).toBeLessThan(MAX_REQUEST_BODY / 4);
    }
    const { stream, seen } = endless();
    const res = await api.fetch(
      `https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records/import`,
      streamed(stream, { authorization: `Bearer ${TOKEN}`, 'content-type': 'multipart/form-data; boundary=x' }),
    );
    await expectTooLarge(res);
    expect(seen.bytes).toBeLessThanOrEqual(IMPORT_BODY_LIMIT + 4 * MiB);
  });

  it("the batch bound follows the zone's own batch limit", async () => {
    const { call } = setup({}, { plan: 'free' });
    const posts = Array.from({ length: 201 }, (_, i) => ({ type: 'A', name: `n${i}`, content: '192.0.2.1' }));
    // Over the batch limit but small: judged (81060), not refused for its size.
    expect((await call('POST', '/batch', { posts })).body.errors[0].code).toBe(81060);
    expect((await call('POST', '/batch', ' '.repeat(batchBodyLimit(free) + 1))).status).toBe(413);
  });

  it('a request the log records is refused the same way, and logged', async () => {
    const { api, call } = setup({ log: true }, { plan: 'free' });
    expect((await call('POST', '', paddedRecord(recordBodyLimit(free) + 1))).status).toBe(413);
    expect(api.log.last()?.status).toBe(413);
  });
});

describe('comment length counts characters without copying the comment', () => {
  it('counts code points: a surrogate pair is one character, a lone surrogate one', () => {
    const pair = '\u{1F600}';
    expect(moreCharactersThan(pair.repeat(100), 100)).toBe(false);
    expect(moreCharactersThan(pair.repeat(101), 100)).toBe(true);
    expect(moreCharactersThan(`${pair.repeat(99)}ab`, 100)).toBe(true);
    expect(moreCharactersThan('\uD800'.repeat(100), 100)).toBe(false);
    expect(moreCharactersThan('\uD800'.repeat(101), 100)).toBe(true);
    expect(moreCharactersThan('a'.repeat(100), 100)).toBe(false);
    expect(moreCharactersThan('', 0)).toBe(false);
    for (const s of ['a\u{1F600}b', '\uDC00\uD800', 'x'.repeat(7), '\u{1F600}'.repeat(3) + 'y']) {
      for (let max = 0; max <= 8; max++) expect(moreCharactersThan(s, max)).toBe([...s].length > max);
    }
  });

  it("a comment far past the limit gets 9302 through the API, while the body is within a record's bound", async () => {
    const { create } = setup({}, { plan: 'free' });
    const res = await create({ type: 'A', name: 'www', content: '192.0.2.1', comment: 'c'.repeat(60_000) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      code: 9302,
      message: 'DNS record comment exceeds the maximum length of 100.',
    });
    // Past the bound the body is never parsed: 413 (issue 26, point 12).
    expect((await create({ type: 'A', name: 'www', content: '192.0.2.1', comment: 'c'.repeat(5 * MiB) })).status).toBe(
      413,
    );
  });
});

describe('TXT quoting is judged in one pass, whatever the content length', () => {
  // The rule as a regular expression: clear, but it recurses a step per character.
  const QUOTED_SEQUENCE = /^\s*"(?:[^"\\]|\\.)*"(?:\s+"(?:[^"\\]|\\.)*")*\s*$/;

  it('agrees with the regular expression on every short string over the characters that matter', () => {
    const alphabet = ['"', '\\', ' ', '\t', '\n', 'a', '\u2028', '\u00a0'];
    const check = (s: string) => expect(isQuotedSequence(s), JSON.stringify(s)).toBe(QUOTED_SEQUENCE.test(s));
    // Every string of up to 5 characters from the alphabet (8^5 = 32768 of them).
    const walk = (prefix: string, left: number) => {
      check(prefix);
      if (left > 0) for (const c of alphabet) walk(prefix + c, left - 1);
    };
    walk('', 5);
    for (const s of ['"a" "b"', ' "a"\t"b" ', '"a""b"', '"a\\"', '"a\\\\" "\\""', '"\\\n"', '"x"y']) check(s);
  });

  it('a quoted TXT content of 12 MiB is judged without a stack overflow; through the API a long one gets 9015, not a 500', async () => {
    expect(isQuotedSequence(`"${'c'.repeat(12 * MiB)}"`)).toBe(true);
    const { create, api } = setup();
    const res = await create({ type: 'TXT', name: 'big', content: `"${'c'.repeat(60_000)}"` });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe(9015);
    // 12 MiB is past any record's body: refused before it is parsed (issue 26, point 12).
    expect((await create({ type: 'TXT', name: 'big', content: `"${'c'.repeat(12 * MiB)}"` })).status).toBe(413);
    expect(api.records('example.com')).toEqual([]);
  });
});
