/**
 * Seed, snapshot, restore and reset on both doubles: synchronous, isolated both ways, and the state
 * after a restore behaves as the state it came from (including listing order and multipart uploads).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';

const text = async (b: Bucket, key: string) => (await b.get(key))?.text();
const keys = async (b: Bucket) => (await b.list()).objects.map((o) => o.key);

describe('Bucket: seed', () => {
  it('takes text, bytes and the object form with put options', async () => {
    // README: bucket-seed
    const bucket = new Bucket({
      seed: {
        'notes/a.txt': 'hello',
        'img/dot.bin': new Uint8Array([1, 2, 3]),
        'site/index.html': {
          body: '<h1>hi</h1>',
          httpMetadata: { contentType: 'text/html' },
          customMetadata: { owner: 'ada' },
          storageClass: 'InfrequentAccess',
        },
      },
    });
    // README: end
    expect(await text(bucket, 'notes/a.txt')).toBe('hello');
    expect(new Uint8Array(await (await bucket.get('img/dot.bin'))!.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    const page = await bucket.head('site/index.html');
    expect(page).toMatchObject({
      httpMetadata: { contentType: 'text/html' },
      customMetadata: { owner: 'ada' },
      storageClass: 'InfrequentAccess',
    });
    expect(page!.etag).toBe('8097d38e49cc85c6e16e47e447a12142'); // md5('<h1>hi</h1>'), as md5sum gives it
  });

  it("applies put's rules, throwing its errors synchronously, and seeds nothing from a refused entry", () => {
    const bucket = new Bucket();
    expect(() => bucket.seed({ ok: 'x', [`${'k'.repeat(1025)}`]: 'too long' })).toThrow(
      'put: The specified object name is not valid. (10020)',
    );
    expect(() => bucket.seed({ bad: { body: 'x', httpMetadata: 5 as never } })).toThrow(
      "Incorrect type for the 'httpMetadata' field on 'PutOptions': the provided value is not of type 'HttpMetadata or Headers'.",
    );
    expect(() => bucket.seed({ blob: new Blob(['x']) as never })).toThrow(
      'a body must be a string, an ArrayBuffer or an ArrayBufferView',
    );
    return expect(keys(bucket)).resolves.toEqual(['ok']);
  });

  it('can seed more after construction, and seeding is neither logged nor faulted', async () => {
    const bucket = new Bucket({ log: true });
    bucket.faults.add({ op: 'put', times: Infinity });
    bucket.seed({ a: '1', b: '2' });
    expect(bucket.log.all()).toEqual([]);
    expect(bucket.faults.list()[0]!.hits).toBe(0);
    expect(await keys(bucket)).toEqual(['a', 'b']);
  });
});

describe('Bucket: snapshot, restore, reset', () => {
  it('restores synchronously, and changes after the snapshot never reach it', async () => {
    // README: bucket-snapshot
    const bucket = new Bucket({ seed: { 'a.txt': 'one', 'b.txt': 'two' } });
    const seeded = bucket.snapshot(); // synchronous, O(1): nothing is copied

    await bucket.put('a.txt', 'changed');
    await bucket.delete('b.txt');
    await bucket.put('c.txt', 'new');

    bucket.restore(seeded); // synchronous, O(1)
    expect(await (await bucket.get('a.txt'))!.text()).toBe('one');
    expect((await bucket.list()).objects.map((o) => o.key)).toEqual(['a.txt', 'b.txt']);
    // README: end
  });

  it('changes after a restore never reach the snapshot: it can be restored again and again', async () => {
    const bucket = new Bucket({ seed: { a: '1' } });
    const s = bucket.snapshot();
    for (let round = 0; round < 3; round++) {
      bucket.restore(s);
      expect(await keys(bucket)).toEqual(['a']);
      expect(await text(bucket, 'a')).toBe('1');
      await bucket.put('a', `changed ${round}`);
      await bucket.put(`extra ${round}`, 'x');
      await bucket.delete('a');
    }
  });

  it('keeps the object a snapshot saw even when the same key is overwritten repeatedly after it', async () => {
    const bucket = new Bucket();
    await bucket.put('k', 'v1');
    const s1 = bucket.snapshot();
    await bucket.put('k', 'v2');
    await bucket.put('k', 'v3'); // the second overwrite reuses the cell the first one made
    const s2 = bucket.snapshot();
    await bucket.put('k', 'v4');
    bucket.restore(s1);
    expect(await text(bucket, 'k')).toBe('v1');
    bucket.restore(s2);
    expect(await text(bucket, 'k')).toBe('v3');
  });

  it('reads after a restore find keys the cache has not seen yet, and deletes reach them', async () => {
    const bucket = new Bucket();
    for (let i = 0; i < 50; i++) await bucket.put(`k${i}`, `${i}`);
    const s = bucket.snapshot();
    bucket.reset();
    bucket.restore(s);
    expect(await bucket.head('k7')).not.toBeNull();
    expect(await bucket.head('nope')).toBeNull();
    await bucket.delete('k8');
    expect(await bucket.head('k8')).toBeNull();
    expect((await bucket.list()).objects.length).toBe(49);
    bucket.restore(s);
    expect(await bucket.head('k8')).not.toBeNull();
  });

  it('includes multipart uploads: parts added after the snapshot are gone after a restore', async () => {
    const bucket = new Bucket();
    const upload = await bucket.createMultipartUpload('big');
    const p1 = await upload.uploadPart(1, 'x'.repeat(5 * 1024 * 1024));
    const s = bucket.snapshot();
    const p2 = await upload.uploadPart(2, 'tail');
    await upload.complete([p1, p2]);
    expect((await bucket.head('big'))!.size).toBe(5 * 1024 * 1024 + 4);

    bucket.restore(s);
    expect(await bucket.head('big')).toBeNull();
    // The upload is active again, with part 1 only: completing with part 2 fails, with part 1 works.
    const again = bucket.resumeMultipartUpload('big', upload.uploadId);
    await expect(again.complete([p1, p2])).rejects.toThrow(
      'completeMultipartUpload: One or more of the specified parts could not be found. (10025)',
    );
    await again.complete([p1]);
    expect((await bucket.head('big'))!.size).toBe(5 * 1024 * 1024);

    bucket.restore(s); // the completion did not reach the snapshot either
    await expect(bucket.resumeMultipartUpload('big', upload.uploadId).uploadPart(3, 'y')).resolves.toMatchObject({
      partNumber: 3,
    });
  });

  it('restores a snapshot of one bucket into another (a shared seeded state)', async () => {
    const source = new Bucket({ seed: { shared: 'state' } });
    const s = source.snapshot();
    const a = new Bucket();
    const b = new Bucket();
    a.restore(s);
    b.restore(s);
    await a.put('shared', 'changed in a');
    expect(await text(b, 'shared')).toBe('state');
    expect(await text(source, 'shared')).toBe('state');
  });

  it('reset empties objects and uploads and clears faults and the log', async () => {
    const bucket = new Bucket({ seed: { a: '1' }, log: true });
    const upload = await bucket.createMultipartUpload('u');
    bucket.faults.add({ op: 'get' });
    bucket.reset();
    expect(await keys(bucket)).toEqual([]);
    await expect(upload.uploadPart(1, 'x')).rejects.toThrow(
      'uploadPart: The specified multipart upload does not exist. (10024)',
    );
    expect(bucket.faults.list()).toEqual([]);
    expect(bucket.log.all().map((c) => c.op)).toEqual(['list', 'uploadPart']); // the calls made after the reset
  });

  it('refuses what is not a snapshot', () => {
    expect(() => new Bucket().restore({ objects: 0 })).toThrow(
      'Bucket.restore: not a snapshot taken by Bucket.snapshot()',
    );
  });

  // Random operations interleaved with snapshots and restores never diverge from a deep-copy model.
  it('matches a deep-copy reference model over random operations, snapshots and restores', async () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const bucket = new Bucket();
    let model = new Map<string, string>();
    const snaps: { s: ReturnType<Bucket['snapshot']>; m: Map<string, string> }[] = [];
    for (let step = 0; step < 600; step++) {
      const key = `k${rand(30)}`;
      switch (rand(6)) {
        case 0:
        case 1: {
          const v = `v${step}`;
          await bucket.put(key, v);
          model.set(key, v);
          break;
        }
        case 2:
          await bucket.delete(key);
          model.delete(key);
          break;
        case 3:
          snaps.push({ s: bucket.snapshot(), m: new Map(model) });
          break;
        case 4:
          if (snaps.length) {
            const pick = snaps[rand(snaps.length)]!;
            bucket.restore(pick.s);
            model = new Map(pick.m);
          }
          break;
        case 5:
          expect(await text(bucket, key), `step ${step}`).toBe(model.get(key));
      }
    }
    const listed = (await bucket.list()).objects.map((o) => o.key);
    expect(listed).toEqual([...model.keys()].sort());
    for (const [k, v] of model) expect(await text(bucket, k)).toBe(v);
  });
});

describe('per-test reset: seed once, restore before each test', () => {
  // README: per-test
  const bucket = new Bucket({ seed: { 'config.json': '{"mode":"test"}' } });
  const seeded = bucket.snapshot();
  beforeEach(() => bucket.restore(seeded));
  // README: end

  it('a test changes the bucket', async () => {
    await bucket.put('config.json', '{}');
    await bucket.put('left-over.txt', 'x');
    expect(await keys(bucket)).toEqual(['config.json', 'left-over.txt']);
  });

  it('the next test starts from the seed again', async () => {
    expect(await text(bucket, 'config.json')).toBe('{"mode":"test"}');
    expect(await bucket.head('left-over.txt')).toBeNull();
  });
});

describe('DnsApi: seed, snapshot, restore, reset', () => {
  it('seeds zones with records, keeping ids given', () => {
    // README: dns-seed
    const api = new DnsApi({
      zones: [
        {
          name: 'example.com',
          records: [
            { id: '0123456789abcdef0123456789abcdef', type: 'A', name: 'www', content: '198.51.100.4', ttl: 3600 },
            { type: 'MX', name: '@', content: 'mail.example.com', priority: 10 },
            { type: 'TXT', name: '_acme-challenge', content: '"token"', ttl: 60 },
          ],
        },
      ],
    });
    // README: end
    const records = api.records('example.com');
    expect(records.map((r) => [r.type, r.name])).toEqual([
      ['A', 'www.example.com'],
      ['MX', 'example.com'],
      ['TXT', '_acme-challenge.example.com'],
    ]);
    expect(records[0]!.id).toBe('0123456789abcdef0123456789abcdef');
    expect(records[1]!.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("seeding follows the API's rules and refuses bad or duplicate ids", () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }] });
    expect(() => api.seed('example.com', [{ type: 'A', name: 'www', content: 'not-an-ip' }])).toThrow(
      'Content for A record must be a valid IPv4 address.',
    );
    expect(() => api.seed('example.com', [{ id: 'XYZ', type: 'A', name: 'www', content: '198.51.100.4' }])).toThrow(
      'record id must be 32 lowercase hex',
    );
    const id = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    api.seed('example.com', [{ id, type: 'A', name: 'a', content: '198.51.100.4' }]);
    expect(() => api.seed('example.com', [{ id, type: 'A', name: 'b', content: '198.51.100.4' }])).toThrow(
      `duplicate record id ${id}`,
    );
    expect(api.records('example.com').map((r) => r.name)).toEqual(['a.example.com']);
  });

  it('restores records, indexes and listing order; both directions isolated', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com', plan: 'pro' }] });
    const zoneId = api.zone('example.com')!.id;
    api.seed(zoneId, [
      { type: 'A', name: 'b', content: '198.51.100.1' },
      { type: 'A', name: 'a', content: '198.51.100.2' },
    ]);
    const list = async (query = '') => {
      const res = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records${query}`, {
        headers: { authorization: 'Bearer t' },
      });
      return ((await res.json()) as { result: { name: string; content: string }[] }).result.map(
        (r) => `${r.name} ${r.content}`,
      );
    };
    const before = await list(); // builds the listing cache, which the snapshot then shares
    const s = api.snapshot();

    const post = (body: object) =>
      api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post({ type: 'A', name: 'c', content: '198.51.100.3' });
    await post({ type: 'CNAME', name: 'a', content: 'x.example.net' }).then(async (r) => expect(r.status).toBe(400)); // conflicts with A at a
    expect(await list()).toHaveLength(3);

    api.restore(s);
    expect(await list()).toEqual(before);
    expect(await list('?name=c.example.com')).toEqual([]);
    expect(await list('?type=A&name=a.example.com')).toEqual(['a.example.com 198.51.100.2']);

    // After the restore, changes do not reach the snapshot.
    await post({ type: 'A', name: 'd', content: '198.51.100.4' });
    api.restore(s);
    expect(await list()).toEqual(before);
  });

  it('drops zones added after the snapshot; reset empties zones but keeps them', () => {
    // README: dns-snapshot-reset
    const api = new DnsApi({
      zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '198.51.100.4' }] }],
    });
    const s = api.snapshot();
    api.addZone({ name: 'example.org' });
    api.restore(s); // zones added since are dropped
    expect(api.zones.map((z) => z.name)).toEqual(['example.com']);
    api.reset(); // every zone emptied, the zones kept
    expect(api.zones.map((z) => z.name)).toEqual(['example.com']);
    expect(api.records('example.com')).toEqual([]);
    api.restore(s);
    expect(api.records('example.com').map((r) => r.name)).toEqual(['www.example.com']);
    // README: end
  });

  it('refuses a snapshot of another DnsApi', () => {
    const a = new DnsApi({ zones: [{ name: 'example.com' }] });
    const b = new DnsApi({ zones: [{ name: 'example.com' }] });
    expect(() => b.restore(a.snapshot())).toThrow('DnsApi.restore: not a snapshot taken by this DnsApi');
  });
});
