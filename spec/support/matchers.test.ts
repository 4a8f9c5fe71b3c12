/**
 * The Vitest matchers from `edge-doubles/vitest` and their plain-function twins: what passes, what
 * fails and how the failure reads (diffs through actual/expected, nearest keys, the calls made).
 */
import { logOnFailure, testFault } from 'edge-doubles/vitest'; // registers the matchers; in a project, import it in a setup file
import { describe, expect, it } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';
import {
  AssertionError,
  assertDnsRecord,
  assertNoObject,
  assertNotReceived,
  assertObject,
  assertReceived,
} from 'edge-doubles';
import { checkReceived } from '../../lib/support/matchers.js';
import { checkObject } from '../../lib/bucket/object-matcher.js';

/** The error a failing assertion throws. */
function failure(fn: () => void): Error & { actual?: unknown; expected?: unknown } {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

describe('toHaveObject', () => {
  it('passes on content and metadata, and reads with .not', async () => {
    // README: matchers-object
    const bucket = new Bucket();
    await bucket.put('notes/a.txt', 'hello', {
      httpMetadata: { contentType: 'text/plain' },
      customMetadata: { by: 'ada' },
    });

    expect(bucket).toHaveObject('notes/a.txt');
    expect(bucket).toHaveObject('notes/a.txt', {
      body: 'hello',
      httpMetadata: { contentType: 'text/plain' },
      customMetadata: { by: 'ada' },
    });
    expect(bucket).toHaveObject('notes/a.txt', { checksums: { md5: '5d41402abc4b2a76b9719d911017c592' } });
    expect(bucket).not.toHaveObject('notes/b.txt');
    // README: end
    expect(bucket).toHaveObject('notes/a.txt', {
      body: /^hel/,
      size: 5,
      storageClass: 'Standard',
      etag: '5d41402abc4b2a76b9719d911017c592',
    });
    expect(bucket).toHaveObject('notes/a.txt', { body: new TextEncoder().encode('hello') });
    expect(bucket).not.toHaveObject('notes/a.txt', { body: 'bye' });
  });

  it('a missing object names the nearest keys and the calls made on that key', async () => {
    const bucket = new Bucket({ log: true });
    await bucket.put('notes/a.txt', '1');
    await bucket.put('notes/ab.txt', '2');
    await bucket.put('other/z', '3');
    await bucket.delete('notes/b.txt');
    const e = failure(() => expect(bucket).toHaveObject('notes/b.txt'));
    expect(e.message).toContain('expected the bucket to have an object at "notes/b.txt", but there is none.');
    expect(e.message).toContain('Nearest keys: "notes/a.txt", "notes/ab.txt", "other/z"');
    expect(e.message).toMatch(
      /Calls on "notes\/b.txt" \(last 1\):\n#\s+at\s+op.*\n.*\n1?\d\s+\S+\s+delete\s+notes\/b.txt/,
    );
  });

  it('a differing object fails with actual and expected cut to the fields asked for', async () => {
    const bucket = new Bucket({
      seed: { k: { body: 'actual body', httpMetadata: { contentType: 'text/plain', cacheControl: 'no-store' } } },
    });
    const r = checkObject(bucket, 'k', { body: 'expected body', httpMetadata: { contentType: 'text/plain' } });
    expect(r.pass).toBe(false);
    expect(r.actual).toEqual({ body: 'actual body', httpMetadata: { contentType: 'text/plain' } });
    expect(r.expected).toEqual({ body: 'expected body', httpMetadata: { contentType: 'text/plain' } });
    const e = failure(() => expect(bucket).toHaveObject('k', { body: 'expected body' }));
    expect(e.message).toContain('expected the object at "k" to match the expectation; it differs.');
  });

  it('refuses extra arguments and things that are not buckets', () => {
    const bucket = new Bucket();
    // @ts-expect-error: a third argument is a mistake the types catch too
    expect(() => expect(bucket).toHaveObject('k', {}, 'extra')).toThrow(
      'toHaveObject(key, expected?) takes at most 2 arguments',
    );
    expect(() => expect({}).toHaveObject('k')).toThrow(
      'toHaveObject: expected a Bucket or an S3Api from edge-doubles, got Object',
    );
    // @ts-expect-error: a misspelt matcher is a compile error (and, at run time, Vitest's own error)
    expect(() => expect(bucket).toHaveObjects('k')).toThrow();
  });
});

describe('toHaveReceived', () => {
  it('checks calls with arguments, outcome and count', async () => {
    // README: matchers-received
    const bucket = new Bucket({ log: true });
    bucket.faults.add({ op: 'put', times: 1 });
    await bucket.put('report.csv', 'a,b').catch(() => {}); // fails once...
    await bucket.put('report.csv', 'a,b'); // ...and the retry succeeds

    expect(bucket).toHaveReceived({ op: 'put', key: 'report.csv', times: 2 });
    expect(bucket).toHaveReceived({ op: 'put', status: 'error', error: /\(10001\)$/, injected: true });
    expect(bucket).toHaveReceived({ op: 'put', status: 'ok', result: { size: 3 }, times: 1 });
    expect(bucket).not.toHaveReceived({ op: 'delete' });
    // README: end
  });

  it('with no query checks for any call; .not asserts that nothing was called', () => {
    const bucket = new Bucket({ log: true });
    expect(bucket).not.toHaveReceived();
    const e = failure(() => expect(bucket).toHaveReceived());
    expect(e.message).toContain('expected any call, got none.');
  });

  it('a wrong count shows the count and the calls made', async () => {
    const bucket = new Bucket({ log: true });
    await bucket.put('a', '1');
    const r = checkReceived(bucket, { op: 'put', times: 2 });
    expect([r.pass, r.actual, r.expected]).toEqual([false, 1, 2]);
    const e = failure(() => expect(bucket).toHaveReceived({ op: 'put', times: 2 }));
    expect(e.message).toMatch(/^expected a call matching \{"op":"put"\} 2 times, got 1\.\nCalls made:\n# {2}at/);
  });

  it('a missing call diffs against the nearest call of that operation', async () => {
    const bucket = new Bucket({ log: true });
    await bucket.put('a', '1', { customMetadata: { v: '1' } });
    const r = checkReceived(bucket, { op: 'put', key: 'a', options: { customMetadata: { v: '2' } } });
    expect(r.pass).toBe(false);
    expect(r.actual).toEqual({ op: 'put', key: 'a', options: { customMetadata: { v: '1' } } });
  });

  it('says how to turn the log on instead of passing silently', () => {
    const bucket = new Bucket();
    expect(() => expect(bucket).not.toHaveReceived({ op: 'put' })).toThrow(
      "toHaveReceived: the bucket's call log is off, so no call can be checked. Build it with { log: true } or call .log.start() before the code under test runs.",
    );
  });

  it("works on a DnsApi's requests", async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }], log: true });
    await api.fetch('https://api.cloudflare.com/client/v4/zones?name=example.com', {
      headers: { authorization: 'Bearer t' },
    });
    expect(api).toHaveReceived({ method: 'GET', path: 'zones', query: { name: 'example.com' }, status: 200 });
    expect(api).not.toHaveReceived({ method: 'POST' });
  });
});

describe('toHaveDnsRecord', () => {
  it('finds a record by the fields given (relative names are in the zone)', () => {
    // README: matchers-dns
    const api = new DnsApi({
      zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '198.51.100.4', ttl: 3600 }] }],
    });

    expect(api).toHaveDnsRecord('example.com', { type: 'A', name: 'www', content: '198.51.100.4' });
    expect(api).toHaveDnsRecord('example.com', { name: 'www.example.com', ttl: 3600, proxied: false });
    expect(api).not.toHaveDnsRecord('example.com', { type: 'AAAA', name: 'www' });
    // README: end
  });

  it('tests a RegExp against a string field, element by element in tags', () => {
    const api = new DnsApi({
      zones: [
        {
          name: 'example.com',
          plan: 'pro',
          records: [{ type: 'A', name: 'www', content: '198.51.100.4', tags: ['team:web'] }],
        },
      ],
    });
    expect(api).toHaveDnsRecord('example.com', { name: /^www\./, content: /^198\.51\.100\./, tags: [/^team:/] });
    expect(api).not.toHaveDnsRecord('example.com', { content: /^203\./ });
    expect(api).not.toHaveDnsRecord('example.com', { tags: [/^owner:/] });
  });

  it('a failure diffs against the nearest record', () => {
    const api = new DnsApi({
      zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '198.51.100.4' }] }],
    });
    const e = failure(() =>
      expect(api).toHaveDnsRecord('example.com', { type: 'A', name: 'www', content: '198.51.100.5' }),
    );
    expect(e.message).toContain(
      'expected zone example.com to have a record matching {"type":"A","name":"www.example.com","content":"198.51.100.5"}; the nearest one differs.',
    );
    expect(e.actual).toEqual({ type: 'A', name: 'www.example.com', content: '198.51.100.4' });
    expect(() => expect(api).toHaveDnsRecord('example.org', { type: 'A' })).toThrow(
      'the DnsApi has no zone "example.org"',
    );
  });
});

describe('plain functions (node:test, Jest)', () => {
  it('pass silently and throw AssertionError with actual, expected and a diff', async () => {
    // README: assertions
    const bucket = new Bucket({ seed: { 'a.txt': 'hello' }, log: true });
    assertObject(bucket, 'a.txt', { body: 'hello' });
    assertNoObject(bucket, 'b.txt');
    assertNotReceived(bucket); // seeding is not a call
    // README: end
    const e = failure(() => assertObject(bucket, 'a.txt', { body: 'bye' }));
    expect(e).toBeInstanceOf(AssertionError);
    expect(e).toMatchObject({
      name: 'AssertionError',
      code: 'ERR_ASSERTION',
      actual: { body: 'hello' },
      expected: { body: 'bye' },
    });
    expect(e.message).toContain('- Expected\n+ Received\n\n  {\n-   "body": "bye"\n+   "body": "hello"\n  }');
    expect(failure(() => assertNoObject(bucket, 'a.txt')).message).toBe(
      'expected the bucket not to have an object at "a.txt", but it has one (5 bytes)',
    );

    await bucket.get('a.txt');
    assertReceived(bucket, { op: 'get', key: 'a.txt', times: 1 });
    expect(failure(() => assertNotReceived(bucket, { op: 'get' })).message).toMatch(
      /^expected no call matching \{"op":"get"\}, got 1\./,
    );

    const api = new DnsApi({ zones: [{ name: 'example.com', records: [{ type: 'TXT', name: 'x', content: '"v"' }] }] });
    assertDnsRecord(api, 'example.com', { type: 'TXT', name: 'x', content: '"v"' });
    expect(failure(() => assertDnsRecord(api, 'example.com', { type: 'TXT', name: 'y' }))).toBeInstanceOf(
      AssertionError,
    );
  });
});

describe('test-scoped helpers from edge-doubles/vitest', () => {
  const bucket = new Bucket();

  it('testFault adds a rule for this test only', async () => {
    // README: test-fault
    testFault(bucket, { op: 'get', times: Infinity, error: 'rateLimit' });
    await expect(bucket.get('k')).rejects.toThrow('(10058)');
    // README: end
    expect(bucket.faults.list()).toHaveLength(1);
  });

  it('the next test has no such rule', async () => {
    expect(bucket.faults.list()).toEqual([]);
    await expect(bucket.get('k')).resolves.toBeNull();
  });

  it('logOnFailure turns recording on (the table is printed only if the test fails)', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }] });
    logOnFailure(bucket, api);
    expect(bucket.log.recording && api.log.recording).toBe(true);
    await bucket.put('a', '1');
    expect(bucket).toHaveReceived({ op: 'put', times: 1 });
  });
});
