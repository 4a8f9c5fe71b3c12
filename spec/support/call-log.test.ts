/**
 * The call logs: every bucket call and every DNS request, in order, as they were made; filterable,
 * clearable, printable; off unless asked for; `dns serve --log` prints one line per request.
 */
import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';
import { ManualClock } from 'edge-doubles';
import { S3Api } from 'edge-doubles/s3';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { runCli } from '../../lib/node/commands.js';
import { sdk } from '../s3/support.js';

describe('Bucket call log', () => {
  it('records operation, key, options as given, outcome and time, in order', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    // README: bucket-log
    const bucket = new Bucket({ log: true, clock });
    await bucket.put('notes/a.txt', 'hello', { httpMetadata: { contentType: 'text/plain' } });
    await bucket.get('notes/missing.txt');
    await bucket.list({ prefix: 'notes/' });

    expect(bucket.log.filter({ op: 'put' })).toMatchObject([
      {
        op: 'put',
        key: 'notes/a.txt',
        options: { httpMetadata: { contentType: 'text/plain' } },
        status: 'ok',
        result: { size: 5 },
      },
    ]);
    console.log(bucket.log.table()); // one row per call: time, op, key, options, outcome, fault
    // README: end
    expect(bucket.log.all().map((c) => [c.seq, c.op, c.status])).toEqual([
      [1, 'put', 'ok'],
      [2, 'get', 'ok'],
      [3, 'list', 'ok'],
    ]);
    expect(bucket.log.all()[0]!.at).toBe(Date.UTC(2026, 0, 1));
    expect(bucket.log.all()[0]!.value).toBe('hello');
    expect(bucket.log.all()[1]!.result).toBeNull();
    expect(bucket.log.all()[2]!.result).toEqual({ objects: ['notes/a.txt'], truncated: false, delimitedPrefixes: [] });
  });

  it('prints a readable table', async () => {
    const bucket = new Bucket({ log: true, clock: () => Date.UTC(2026, 0, 1) });
    await bucket.put('a', 'xyz');
    await bucket.put('b', 5 as never).catch(() => {});
    expect(bucket.log.table().split('\n')).toEqual([
      '#  at                        op   key  options  outcome                                                       fault',
      '-  ------------------------  ---  ---  -------  ------------------------------------------------------------  -----',
      '1  2026-01-01T00:00:00.000Z  put  a             3 bytes',
      "2  2026-01-01T00:00:00.000Z  put  b             TypeError: Failed to execute 'put' on 'R2Bucket': parameter…",
    ]);
  });

  it('keeps what was sent, not what the caller changed afterwards', async () => {
    const bucket = new Bucket({ log: true });
    const options = { customMetadata: { v: '1' } };
    const bytes = new Uint8Array([1, 2, 3]);
    await bucket.put('k', bytes, options);
    options.customMetadata.v = '2';
    bytes[0] = 9;
    const [call] = bucket.log.all();
    expect(call!.options).toEqual({ customMetadata: { v: '1' } });
    expect(call!.value).toBe('[Uint8Array 3 bytes]'); // bytes are described; the bucket holds them
  });

  it('keeps Headers options as the header values they held at the call', async () => {
    const bucket = new Bucket({ log: true });
    const headers = new Headers({ 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
    await bucket.put('k', 'v', { httpMetadata: headers });
    headers.set('content-type', 'image/png');
    expect(bucket.log.all()[0]!.options).toEqual({
      httpMetadata: { headers: { 'cache-control': 'no-store', 'content-type': 'text/plain' } },
    });
  });

  it('records errors, the faults that acted, and filters by them', async () => {
    const bucket = new Bucket({ log: true });
    bucket.faults.add({ op: 'put', error: 'rateLimit' });
    await bucket.put('k', 'v').catch(() => {});
    await bucket.put('k', 'v');
    await bucket.head('x'.repeat(1025)).catch(() => {});
    const [faulted] = bucket.log.filter({ injected: true });
    expect(faulted).toMatchObject({
      op: 'put',
      status: 'error',
      error: { message: 'put: Reduce your concurrent request rate for the same object. (10058)' },
      injected: { failed: true },
    });
    expect(bucket.log.filter({ error: /10020/ }).map((c) => c.op)).toEqual(['head']);
    expect(bucket.log.table()).toMatch(/put\s+k\s+10058 Reduce your concurrent request rate for the same .*\s+#\d+\n/);
    expect(bucket.log.filter({ status: 'ok' })).toHaveLength(1);
    expect(bucket.log.filter((c) => c.op === 'head')).toHaveLength(1);
    expect(bucket.log.last()!.op).toBe('head');
  });

  it("keeps an error's code as data, from the error as raised, and never reads one out of message text", async () => {
    const bucket = new Bucket({ log: true });
    bucket.faults.add({ op: 'put', error: 'rateLimit' });
    // A message that only looks like R2's: its "(10001)" is text, not a code.
    bucket.faults.add({ op: 'get', error: new Error('get: not really R2 (10001)') });
    bucket.faults.add({ op: 'head', error: Object.assign(new Error('socket closed'), { code: 'ECONNRESET' }) });
    await bucket.put('k', 'v').catch(() => {});
    await bucket.get('k').catch(() => {});
    await bucket.head('k').catch(() => {});
    await bucket.delete('x'.repeat(1025)).catch(() => {});
    const [put, get, head, del] = bucket.log.all();
    // The binding's Error carries R2's code only in its text, as workerd's; the log has it as data.
    expect(put!.error).toEqual({
      name: 'Error',
      message: 'put: Reduce your concurrent request rate for the same object. (10058)',
      code: 10058,
    });
    expect('code' in ((await bucket.put('k', 'v').catch((e: Error) => e)) as object)).toBe(false);
    expect(get!.error).toEqual({ name: 'Error', message: 'get: not really R2 (10001)' });
    expect(head!.error).toMatchObject({ code: 'ECONNRESET' });
    expect(del!.error).toMatchObject({ code: 10020 });
    expect(bucket.log.filter({ error: { code: 10058 } }).map((c) => c.op)).toEqual(['put']);
    const rows = bucket.log.table().split('\n');
    expect(rows[2]).toMatch(/put\s+k\s+10058 Reduce your concurrent request rate/);
    expect(rows[3]).toMatch(/get\s+k\s+Error: get: not really R2 \(10001\)/);
    expect(rows[4]).toMatch(/head\s+k\s+ECONNRESET socket closed/);
    expect(rows[5]).toMatch(/delete\s+x+…?\s+10020 The specified object name is not valid\./);
  });

  it("keeps the code of an S3 call's error: R2's number for a fault, S3's code for an S3 answer", async () => {
    const photos = new Bucket({ log: true });
    const client = sdk(new S3Api({ buckets: { photos } }).fetch);
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'k', Body: 'v' }));
    // A conditional Complete that fails: refused inside the layer's operation, with S3's error.
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'k' }));
    const { ETag } = await client.send(
      new UploadPartCommand({ Bucket: 'photos', Key: 'k', UploadId, PartNumber: 1, Body: 'w' }),
    );
    const parts = { Parts: [{ PartNumber: 1, ETag }] };
    await client
      .send(
        new CompleteMultipartUploadCommand({
          Bucket: 'photos',
          Key: 'k',
          UploadId,
          MultipartUpload: parts,
          IfNoneMatch: '*',
        }),
      )
      .catch(() => {});
    photos.faults.add({ op: 'put', times: 3 }); // the SDK tries a 500 three times
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'k', Body: 'w' })).catch(() => {});
    const failed = photos.log.filter({ surface: 's3', status: 'error' });
    expect(failed.map((c) => c.error!.code)).toEqual(['PreconditionFailed', 10001, 10001, 10001]);
    expect(photos.log.table()).toMatch(
      /completeMultipartUpload \(s3\)\s+k\s+.*PreconditionFailed At least one of the pre-cond/,
    );
    expect(photos.log.table()).toMatch(/put \(s3\)\s+k\s+\S+\s+10001 We encountered an internal error/);
  });

  it('records synchronously thrown conversion errors (dates before 2022-10-31)', () => {
    const bucket = new Bucket({ log: true, compatibilityDate: '2022-01-01' });
    expect(() => bucket.head(undefined as never)).not.toThrow(); // undefined converts to "undefined"
    expect(() => (bucket.get as (...a: unknown[]) => unknown)()).toThrow(TypeError);
    expect(bucket.log.all().map((c) => c.status)).toEqual(['ok', 'error']); // both known before the promises settle
  });

  it('records multipart calls with their upload id and part number', async () => {
    const bucket = new Bucket({ log: true });
    const upload = await bucket.createMultipartUpload('big');
    const part = await upload.uploadPart(1, 'abc');
    await upload.complete([part]);
    expect(bucket.log.all().map((c) => [c.op, c.key, c.options])).toEqual([
      ['createMultipartUpload', 'big', undefined],
      ['uploadPart', 'big', { uploadId: upload.uploadId, partNumber: 1, options: undefined }],
      ['completeMultipartUpload', 'big', { uploadId: upload.uploadId, parts: [{ partNumber: 1, etag: part.etag }] }],
    ]);
  });

  it('does not change when a call settles: the same turn of the microtask queue with the log on or off', async () => {
    /** How many turns of the microtask queue pass before `p` settles. */
    const turnsToSettle = async (p: Promise<unknown>): Promise<number> => {
      let settled = false;
      p.then(
        () => (settled = true),
        () => (settled = true),
      );
      let turns = 0;
      while (!settled && turns < 1000) {
        await Promise.resolve();
        turns++;
      }
      return turns;
    };
    type Call = (b: Bucket) => Promise<unknown>;
    const calls: [string, Call][] = [
      ['put of bytes', (b) => b.put('k', new Uint8Array(8))],
      ['put of a string', (b) => b.put('k', 'text')],
      ['put of a Blob (read first)', (b) => b.put('k', new Blob(['blob']))],
      ['put of a request body (read first)', (b) => b.put('k', new Response('stream').body!)],
      ['get', (b) => b.get('k')],
      ['get of a missing key', (b) => b.get('missing')],
      ['head', (b) => b.head('k')],
      ['list', (b) => b.list()],
      ['delete', (b) => b.delete('k')],
      ['a conversion error', (b) => b.put('k', 5 as never)],
      ['an R2 error', (b) => b.head('x'.repeat(1025))],
      ['a failed condition', (b) => b.put('k', 'v', { onlyIf: { etagMatches: 'nope' } })],
      ['a fault', (b) => (b.faults.add({ op: 'get' }), b.get('k'))],
      [
        'a multipart upload',
        (b) => b.createMultipartUpload('m').then((u) => u.uploadPart(1, 'part').then((p) => u.complete([p]))),
      ],
    ];
    for (const compatibilityDate of ['2025-01-01', '2022-01-01']) {
      for (const [what, call] of calls) {
        const turns: number[] = [];
        for (const log of [false, true]) {
          const bucket = new Bucket({ log, compatibilityDate, seed: { k: 'seeded' } });
          turns.push(await turnsToSettle(call(bucket)));
          if (log) expect(bucket.log.last()!.status, what).not.toBe('pending');
        }
        expect(turns[1], `${what} at ${compatibilityDate}: turns with the log off, then on`).toBe(turns[0]);
      }
    }
  });

  it('keeps nothing of a cleared call: the next ones are recorded from #1, whole', async () => {
    const bucket = new Bucket({ log: true });
    bucket.faults.add({ op: 'put', error: 'internal' });
    await bucket.put('a', new ArrayBuffer(4), { customMetadata: { x: '1' } }).catch(() => {});
    await bucket.list({ prefix: 'a' });
    bucket.log.clear();
    bucket.faults.clear();
    await bucket.put('b', new DataView(new ArrayBuffer(2)));
    await bucket.head('c');
    expect(bucket.log.all()).toEqual([
      {
        seq: 1,
        at: expect.any(Number),
        op: 'put',
        surface: 'binding',
        key: 'b',
        options: undefined,
        value: '[DataView 2 bytes]',
        status: 'ok',
        result: expect.objectContaining({ key: 'b', size: 2 }),
      },
      {
        seq: 2,
        at: expect.any(Number),
        op: 'head',
        surface: 'binding',
        key: 'c',
        options: undefined,
        status: 'ok',
        result: null,
      },
    ]);
  });

  it('is off by default, starts and stops on demand, and clears', async () => {
    const bucket = new Bucket();
    await bucket.put('a', '1');
    expect(bucket.log.recording).toBe(false);
    expect(bucket.log.all()).toEqual([]);
    expect(bucket.log.table()).toBe('(no calls: recording is off)');
    bucket.log.start();
    await bucket.put('b', '2');
    bucket.log.stop();
    await bucket.put('c', '3');
    expect(bucket.log.all().map((c) => c.key)).toEqual(['b']);
    bucket.log.clear();
    expect(bucket.log.length).toBe(0);
  });
});

describe('DnsApi request log', () => {
  const token = 'log-token';

  it('records method, path, query, body, auth scheme, status and response body', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }], credentials: [{ token }], log: true });
    const zoneId = api.zone('example.com')!.id;
    const client = new Cloudflare({
      apiToken: token,
      baseURL: 'https://api.cloudflare.com/client/v4',
      fetch: api.fetch,
      maxRetries: 0,
    });
    // README: dns-log
    await client.dns.records.create({
      zone_id: zoneId,
      type: 'TXT',
      name: '_acme-challenge',
      content: '"abc"',
      ttl: 60,
    });
    await client.dns.records.list({ zone_id: zoneId, type: 'TXT' });

    expect(api.log.filter({ method: 'POST', path: 'zones/*/dns_records' })).toMatchObject([
      { auth: 'bearer', body: { type: 'TXT', name: '_acme-challenge' }, status: 200, response: { success: true } },
    ]);
    expect(api.log.last()).toMatchObject({ method: 'GET', query: { type: 'TXT' } });
    // README: end
    const table = api.log.table();
    expect(table.split('\n')[0]).toMatch(/^#\s+at\s+method\s+path\s+auth\s+body\s+status\s+outcome\s+fault$/);
    expect(table).toMatch(
      new RegExp(
        `POST\\s+/zones/${zoneId.slice(0, 6)}…/dns_records\\s+bearer .* 200\\s+TXT _acme-challenge.example.com "abc"`,
      ),
    );
  });

  it('records errors and requests made through handle(), with the global-key scheme and no secrets', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }], log: true });
    const zoneId = api.zone('example.com')!.id;
    await api.handle(
      new Request(`https://x.test/client/v4/zones/${zoneId}/dns_records`, {
        method: 'POST',
        headers: {
          'x-auth-email': 'a@b.c',
          'x-auth-key': '0123456789abcdef0123456789abcdef01234',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ type: 'A', name: 'www', content: 'nope' }),
      }),
    );
    await api.fetch('https://x.test/client/v4/zones');
    const [bad, none] = api.log.all();
    expect(bad).toMatchObject({
      auth: 'global-key',
      status: 400,
      body: { content: 'nope' },
      response: { errors: [{ code: 9005 }] },
    });
    expect(JSON.stringify(bad)).not.toContain('0123456789abcdef0123456789abcdef01234');
    expect(none).toMatchObject({ auth: 'none', status: 400, body: undefined, response: { errors: [{ code: 9106 }] } });
  });

  it('dns serve --log prints one line per request', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const running = runCli(['dns', 'serve', '--port', '0', '--zone', 'example.com', '--token', 't', '--log'], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
      stopped: () => stopped,
    });
    while (!lines.some((l) => l.includes('listening on'))) await new Promise((r) => setTimeout(r, 5));
    const base = /listening on (\S+)/.exec(lines.find((l) => l.includes('listening on'))!)![1]!;
    await fetch(`${base}/zones?name=example.com`, { headers: { authorization: 'Bearer t' } });
    await fetch(`${base}/zones/nope`, { headers: { authorization: 'Bearer t' } });
    stop();
    expect(await running).toBe(0);
    const logged = lines.filter((l) => /^\d{4}-/.test(l));
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^\S+Z GET \/client\/v4\/zones\?name=example\.com 200 1 results$/);
    expect(logged[1]).toMatch(/^\S+Z GET \/client\/v4\/zones\/nope 404 7003 Could not route to/);
  });
});
