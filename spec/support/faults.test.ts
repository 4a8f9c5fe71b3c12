/**
 * Fault rules on both doubles: which calls they catch, how many, the real services' error shapes,
 * delays on the clock, and that a fault never changes stored state.
 */
import Cloudflare, { InternalServerError, RateLimitError } from 'cloudflare';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';
import { ManualClock } from 'edge-doubles';

afterEach(() => {
  vi.useRealTimers();
});

/** Settles a promise into what it gave: 'ok' or the error's message. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: Error) => e.message,
  );

describe('Bucket faults', () => {
  it("fails the next N matching calls with R2's internal error, then lets calls through", async () => {
    // README: bucket-fault
    const bucket = new Bucket();
    bucket.faults.add({ op: 'put', times: 2 }); // default error: R2's internal error (10001)

    await expect(bucket.put('a', '1')).rejects.toThrow(
      'put: We encountered an internal error. Please try again. (10001)',
    );
    await expect(bucket.put('a', '2')).rejects.toThrow('(10001)');
    await bucket.put('a', '3'); // the third put goes through
    expect(await (await bucket.get('a'))!.text()).toBe('3');
    // README: end
  });

  it("answers the per-key rate limit (10058) with the operation's name, and any Error given as is", async () => {
    const bucket = new Bucket();
    bucket.faults.add({ op: 'get', error: 'rateLimit' });
    expect(await outcome(bucket.get('x'))).toBe(
      'get: Reduce your concurrent request rate for the same object. (10058)',
    );
    const mine = new TypeError('network lost');
    bucket.faults.add({ op: 'head', error: mine });
    await expect(bucket.head('x')).rejects.toBe(mine);
    bucket.faults.add({ op: 'delete', error: ({ op, key }) => new Error(`${op} ${key} refused`) });
    expect(await outcome(bucket.delete('k'))).toBe('delete k refused');
  });

  it('catches only keys matching a string or a RegExp; other keys and operations behave as without a rule', async () => {
    const bucket = new Bucket();
    bucket.faults.add({ op: ['put', 'get'], key: /^uploads\//, times: Infinity });
    bucket.faults.add({ key: 'exact.txt', times: Infinity });
    expect(await outcome(bucket.put('uploads/1', 'x'))).toContain('(10001)');
    expect(await outcome(bucket.get('uploads/2'))).toContain('(10001)');
    expect(await outcome(bucket.put('other', 'x'))).toBe('ok');
    expect(await outcome(bucket.head('uploads/1'))).toBe('ok'); // head is not caught by the first rule
    expect(await outcome(bucket.head('exact.txt'))).toContain('head: We encountered');
    expect(await outcome(bucket.delete(['a', 'exact.txt']))).toContain('delete: '); // any key of a delete
    expect(await outcome(bucket.list())).toBe('ok'); // list has no key
  });

  it('`after` lets K calls through first; counters count only the calls a rule catches', async () => {
    const bucket = new Bucket();
    const fault = bucket.faults.add({ op: 'put', after: 2, times: 1 });
    const results = [];
    await bucket.get('x'); // not caught: does not count
    for (let i = 0; i < 4; i++) results.push(await outcome(bucket.put(`k${i}`, 'v')));
    expect(results.map((r) => (r === 'ok' ? 'ok' : 'fail'))).toEqual(['ok', 'ok', 'fail', 'ok']);
    expect([fault.seen, fault.hits, fault.remaining]).toEqual([3, 1, 0]);
    expect(bucket.faults.list()).toEqual([]); // spent rules retire
  });

  it('a seeded probability gives the same sequence on every run', async () => {
    const run = async () => {
      const bucket = new Bucket();
      bucket.faults.add({ op: 'put', probability: 0.3, seed: 42 });
      const out: string[] = [];
      for (let i = 0; i < 40; i++) out.push((await outcome(bucket.put('k', 'v'))) === 'ok' ? '.' : 'x');
      return out.join('');
    };
    const first = await run();
    expect(await run()).toBe(first);
    const failures = first.split('').filter((c) => c === 'x').length;
    expect(failures).toBeGreaterThan(2);
    expect(failures).toBeLessThan(30);
  });

  it('a failed call changes nothing stored, and a refused argument never meets the rule', async () => {
    const bucket = new Bucket({ seed: { a: 'kept' } });
    const fault = bucket.faults.add({ times: Infinity });
    await expect(bucket.put('a', 'lost')).rejects.toThrow();
    await expect(bucket.delete('a')).rejects.toThrow();
    await expect(bucket.createMultipartUpload('m')).rejects.toThrow('createMultipartUpload: We encountered');
    // workerd refuses this before R2 is asked: the TypeError, not the fault
    await expect(bucket.put('a', 5 as never)).rejects.toThrow(TypeError);
    expect(fault.seen).toBe(3);
    fault.remove();
    expect(await (await bucket.get('a'))!.text()).toBe('kept');
    expect((await bucket.list()).objects.length).toBe(1);
  });

  it('the newest matching rule wins; rules are listed, removable, and printed as a table', async () => {
    const bucket = new Bucket();
    bucket.faults.add({ op: 'put', times: Infinity, error: 'internal' }); // the suite's default
    const mine = bucket.faults.add({ op: 'put', key: 'k', error: 'rateLimit' }); // the test's rule
    expect(await outcome(bucket.put('k', 'v'))).toContain('(10058)');
    expect(await outcome(bucket.put('k', 'v'))).toContain('(10001)');
    expect(bucket.faults.list().map((f) => f.rule.error)).toEqual(['internal']);
    expect(mine.remaining).toBe(0);
    const table = bucket.faults.table();
    expect(table.split('\n')[0]).toMatch(/^id\s+op\s+key\s+error\s+delay\s+after\s+probability\s+hits\s+remaining$/);
    expect(table).toContain('put');
    expect(table).toMatch(/every$/m);
    bucket.faults.clear();
    expect(bucket.faults.table()).toBe('(no faults)');
  });

  it("multipart handle calls are caught under R2's operation names", async () => {
    const bucket = new Bucket();
    const upload = await bucket.createMultipartUpload('big');
    bucket.faults.add({ op: 'uploadPart', key: 'big' });
    expect(await outcome(upload.uploadPart(1, 'x'))).toBe(
      'uploadPart: We encountered an internal error. Please try again. (10001)',
    );
    expect(await outcome(upload.uploadPart(1, 'x'))).toBe('ok');
  });

  it('restore and reset clear the rules', async () => {
    const bucket = new Bucket();
    const s = bucket.snapshot();
    bucket.faults.add({ times: Infinity });
    bucket.restore(s);
    expect(await outcome(bucket.put('a', 'b'))).toBe('ok');
    bucket.faults.add({ times: Infinity });
    bucket.reset();
    expect(await outcome(bucket.put('a', 'b'))).toBe('ok');
  });

  it('refuses malformed rules when added', () => {
    const bucket = new Bucket();
    expect(() => bucket.faults.add({ probability: 2 })).toThrow('probability must be between 0 and 1');
    expect(() => bucket.faults.add({ times: -1 })).toThrow('times must be a non-negative number');
    expect(() => bucket.faults.add({ error: 'nope' as never })).toThrow(
      "error must be 'internal', 'rateLimit', an Error or a function",
    );
  });

  it("a delay follows Vitest's fake timers with no option, then the call runs", async () => {
    // README: bucket-delay
    vi.useFakeTimers();
    const bucket = new Bucket();
    bucket.faults.add({ op: 'put', delay: 5_000, error: 'rateLimit' }); // a slow failure

    let settled = '';
    const put = bucket.put('k', 'v').catch((e: Error) => (settled = e.message));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe('');
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe('put: Reduce your concurrent request rate for the same object. (10058)');
    // README: end
    await put;
  });

  it('a delay alone slows the call and then lets it store; on a ManualClock it waits for advance()', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const bucket = new Bucket({ clock });
    bucket.faults.add({ op: 'put', delay: 100 });
    let done = false;
    const put = bucket.put('k', 'v').then(() => (done = true));
    await Promise.resolve();
    expect(await bucket.head('k')).toBeNull();
    clock.advance(99);
    await new Promise((r) => setTimeout(r, 1));
    expect(done).toBe(false);
    clock.advance(1);
    await put;
    expect((await bucket.head('k'))!.uploaded.getTime()).toBe(Date.UTC(2026, 0, 1) + 100);
  });

  it('a 0 ms delay starts no timer', async () => {
    vi.useFakeTimers();
    const bucket = new Bucket();
    bucket.faults.add({ op: 'put', delay: 0 });
    const p = bucket.put('k', 'v');
    expect(vi.getTimerCount()).toBe(0);
    await p;
  });
});

describe('DnsApi faults', () => {
  const token = 'fault-token';
  const setup = () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }], credentials: [{ token }] });
    const zoneId = api.zone('example.com')!.id;
    const client = new Cloudflare({
      apiToken: token,
      baseURL: 'https://api.cloudflare.com/client/v4',
      fetch: api.fetch,
      maxRetries: 0,
    });
    return { api, zoneId, client };
  };

  it("answers 429 with code 971 in the API's envelope for N requests, then lets them through", async () => {
    const { api, zoneId, client } = setup();
    // README: dns-fault
    api.faults.add({ method: 'POST', path: 'zones/*/dns_records', status: 429, times: 1 });

    const create = () =>
      client.dns.records.create({ zone_id: zoneId, type: 'A', name: 'www', content: '198.51.100.4', ttl: 3600 });
    const refused = await create().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).errors).toEqual([
      { code: 971, message: 'Please wait and consider throttling your request speed' },
    ]);
    await create(); // the next request goes through
    // README: end
    expect(api.records(zoneId)).toHaveLength(1);
  });

  it('a 5xx answers in the envelope, and nothing is stored by a faulted write', async () => {
    const { api, zoneId, client } = setup();
    api.faults.add({ method: ['POST', 'PUT'], path: /\/dns_records/, status: 503, times: 2 });
    const e = await client.dns.records
      .create({ zone_id: zoneId, type: 'A', name: 'www', content: '198.51.100.4', ttl: 1 })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InternalServerError);
    expect((e as InternalServerError).status).toBe(503);
    expect((e as InternalServerError).errors).toEqual([{ code: 10001, message: 'Internal error' }]);
    expect(api.records(zoneId)).toEqual([]);
    // GET is not caught
    expect((await client.dns.records.list({ zone_id: zoneId })).result).toEqual([]);
  });

  it('code, message and retry-after can be given; the path pattern catches one segment per *', async () => {
    const { api, zoneId } = setup();
    api.faults.add({ path: 'zones/*', status: 500, code: 1234, message: 'boom', retryAfter: 3 });
    const other = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(other.status).toBe(200); // zones/*/dns_records is two segments deeper than zones/*
    const res = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toEqual({
      result: null,
      success: false,
      errors: [{ code: 1234, message: 'boom' }],
      messages: [],
    });
  });

  it('a delay follows the shared clock and then answers normally; reset clears rules', async () => {
    const clock = new ManualClock(0);
    const api = new DnsApi({ zones: [{ name: 'example.com' }], clock });
    api.faults.add({ path: 'zones', delay: 250 });
    let status = 0;
    const p = api
      .fetch('https://api.cloudflare.com/client/v4/zones', { headers: { authorization: 'Bearer x' } })
      .then((r) => (status = r.status));
    await new Promise((r) => setTimeout(r, 1));
    expect(status).toBe(0);
    clock.advance(250);
    await p;
    expect(status).toBe(200);
    api.faults.add({ path: 'zones', status: 500, times: Infinity });
    api.reset();
    expect(
      (await api.fetch('https://api.cloudflare.com/client/v4/zones', { headers: { authorization: 'Bearer x' } }))
        .status,
    ).toBe(200);
  });
});
