/**
 * One test-support interface for every double (lib/support/double.ts, registered once in
 * lib/support/registry.ts): the snapshot rule per double, the S3Api as a double (snapshot, restore,
 * reset, its call log read through its buckets), and a double the matchers were never told about.
 */
import { describe, expect, it } from 'vitest';
import { CreateBucketCommand, DeleteBucketCommand, GetObjectCommand, PutBucketCorsCommand, GetBucketCorsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import 'edge-doubles/vitest';
import { logOnFailure } from 'edge-doubles/vitest';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';
import { S3Api } from 'edge-doubles/s3';
import { assertNotReceived, assertReceived } from '../../lib/support/assertions.js';
import { checkReceived } from '../../lib/support/matchers.js';
import { ArrayStore, CallLog, type LoggedCall } from '../../lib/support/call-log.js';
import { doubleOf, registerDouble } from '../../lib/support/registry.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { CREDENTIALS, sdk } from '../s3/support.js';

const text = async (b: Bucket, key: string) => (await b.get(key))?.text();

function served(buckets: Record<string, Bucket> = { photos: new Bucket() }) {
  const s3 = new S3Api({ buckets, credentials: [CREDENTIALS] });
  return { s3, client: sdk(s3.fetch) };
}

describe('the snapshot rule: a snapshot restores into the double that took it', () => {
  it('Bucket: into itself, and (in memory) into any other Bucket; anything else is a TypeError', () => {
    const a = new Bucket({ seed: { k: 'a' } });
    const b = new Bucket();
    const s = a.snapshot();
    a.restore(s);
    b.restore(s); // documented: one seeded state for several buckets
    expect(() => a.restore(new DnsApi().snapshot() as never)).toThrow(new TypeError('Bucket.restore: not a snapshot taken by Bucket.snapshot()'));
    expect(() => a.restore(new S3Api().snapshot() as never)).toThrow(TypeError);
  });

  it('DnsApi: into itself only', () => {
    const a = new DnsApi();
    expect(() => a.restore(new DnsApi().snapshot())).toThrow(new TypeError('DnsApi.restore: not a snapshot taken by this DnsApi'));
    expect(() => a.restore(new Bucket().snapshot() as never)).toThrow(TypeError);
    a.restore(a.snapshot());
  });

  it('S3Api: into itself only (its snapshot names its buckets)', () => {
    const shared = new Bucket();
    const a = new S3Api({ buckets: { shared } });
    const b = new S3Api({ buckets: { shared } });
    expect(() => b.restore(a.snapshot())).toThrow(new TypeError('S3Api.restore: not a snapshot taken by this S3Api'));
    expect(() => a.restore(shared.snapshot() as never)).toThrow(new TypeError('S3Api.restore: not a snapshot taken by this S3Api'));
    expect(() => a.restore({ buckets: 1 })).toThrow(TypeError);
    a.restore(a.snapshot());
  });
});

describe('S3Api as a double', () => {
  it('snapshot and restore: the buckets served, what each holds, and their CORS rules', async () => {
    const photos = new Bucket({ seed: { a: 'one' } });
    const old = new Bucket({ seed: { x: 'kept' } });
    const { s3, client } = served({ photos, old });
    await client.send(new PutBucketCorsCommand({ Bucket: 'photos', CORSConfiguration: { CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['https://a.example'] }] } }));
    const s = s3.snapshot();
    expect(s).toEqual({ buckets: 2 });

    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a', Body: 'changed' }));
    await photos.put('b', 'new');
    await client.send(new CreateBucketCommand({ Bucket: 'later' }));
    await old.delete('x');
    await client.send(new DeleteBucketCommand({ Bucket: 'old' }));
    await client.send(new PutBucketCorsCommand({ Bucket: 'photos', CORSConfiguration: { CORSRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['*'] }] } }));

    s3.restore(s);
    expect(await text(photos, 'a')).toBe('one');
    expect(await photos.head('b')).toBeNull();
    expect(s3.bucket('later')).toBeUndefined();
    expect(s3.bucket('old')).toBe(old);
    expect(await text(old, 'x')).toBe('kept');
    const cors = await client.send(new GetBucketCorsCommand({ Bucket: 'photos' }));
    expect(cors.CORSRules).toMatchObject([{ AllowedMethods: ['GET'], AllowedOrigins: ['https://a.example'] }]);
    // Served again through S3 too.
    const got = await client.send(new GetObjectCommand({ Bucket: 'old', Key: 'x' }));
    expect(await got.Body!.transformToString()).toBe('kept');
  });

  it('restore and reset clear the served buckets\' faults and logs; reset keeps the buckets and their CORS rules', async () => {
    const photos = new Bucket({ seed: { a: 'one' }, log: true });
    const { s3, client } = served({ photos });
    await client.send(new PutBucketCorsCommand({ Bucket: 'photos', CORSConfiguration: { CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }] } }));
    const s = s3.snapshot();
    photos.faults.add({ op: 'get' });
    await photos.put('b', '2');
    s3.restore(s);
    expect(photos.faults.list()).toEqual([]);
    expect(photos.log.length).toBe(0);

    photos.faults.add({ op: 'get' });
    await photos.put('c', '3');
    s3.reset();
    expect(photos.faults.list()).toEqual([]);
    expect(await photos.list()).toMatchObject({ objects: [] });
    expect(s3.bucket('photos')).toBe(photos);
    expect((await client.send(new GetBucketCorsCommand({ Bucket: 'photos' }))).CORSRules).toHaveLength(1);
  });

  it('toHaveReceived reads the S3 calls from the logs of the buckets it serves, named by bucket', async () => {
    const photos = new Bucket({ log: true });
    const docs = new Bucket({ log: true });
    const { s3, client } = served({ photos, docs });
    // README: s3-double
    const seeded = s3.snapshot(); // the buckets served, what each holds, their CORS rules
    await photos.put('binding', 'not an S3 call');
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'p', Body: 'abc' }));
    await client.send(new PutObjectCommand({ Bucket: 'docs', Key: 'd', Body: 'abcd' }));

    expect(s3).toHaveReceived({ op: 'put', times: 2 }); // S3 calls only: the binding's put is the bucket's
    expect(s3).toHaveReceived({ op: 'put', bucket: 'docs', key: 'd', result: { size: 4 }, times: 1 });
    // README: end
    expect(s3).toHaveReceived({ bucket: /^pho/, key: 'p', options: { operation: 'PutObject' } });
    expect(s3).not.toHaveReceived({ key: 'binding' }); // a binding call is the bucket's, not the S3Api's
    expect(s3).not.toHaveReceived({ bucket: 'docs', key: 'p' });
    assertReceived(s3, { op: 'put', bucket: 'photos' });
    expect(() => assertNotReceived(s3, { op: 'put', bucket: 'photos' })).toThrow(/expected no call matching/);

    const miss = checkReceived(s3, { op: 'put', bucket: 'docs', key: 'nope' });
    expect(miss.pass).toBe(false);
    expect(miss.actual).toEqual({ op: 'put', bucket: 'docs', key: 'd' }); // the nearest call of that operation
    const table = miss.message();
    expect(table).toMatch(/bucket/);
    expect(table).toMatch(/docs/);
    expect(table).toMatch(/photos/);
    expect(table).not.toMatch(/"binding"/);
    s3.restore(seeded);
    expect(await photos.head('p')).toBeNull();
  });

  it('says how to turn the log on when no bucket it serves records', () => {
    const { s3 } = served();
    expect(() => expect(s3).toHaveReceived({ op: 'put' })).toThrow(
      "toHaveReceived: the S3Api's call log is off, so no call can be checked. Build its buckets with { log: true } or call bucket.log.start() on them",
    );
  });

  it('logOnFailure starts the log of every bucket an S3Api serves', () => {
    const photos = new Bucket();
    const docs = new Bucket();
    const { s3 } = served({ photos, docs });
    logOnFailure(s3);
    expect(photos.log.recording).toBe(true);
    expect(docs.log.recording).toBe(true);
  });
});

describe('the registry', () => {
  it('a double the matchers were never told about works through its registration alone', () => {
    interface Ping extends LoggedCall {
      readonly word: string;
    }
    const store = new ArrayStore<Ping>();
    const log = new CallLog<Ping, { word?: string }>(true, store, (e, q) => q.word === undefined || e.word === q.word, (e) => ({ word: e.word }));
    const queue = {};
    registerDouble(queue, {
      name: 'Queue',
      label: 'queue',
      entry: 'call',
      logHint: 'Start it.',
      log,
      startLog: () => void log.start(),
      sameKind: () => true,
      snapshot: () => ({}),
      restore: () => {},
      reset: () => store.clear(),
    });
    store.push({ seq: 1, at: 0, word: 'hello' });
    expect(queue).toHaveReceived({ word: 'hello', times: 1 } as never);
    expect(queue).not.toHaveReceived({ word: 'bye' } as never);
    expect(() => expect(queue).toHaveObject('k')).toThrow('toHaveObject: expected a Bucket from edge-doubles, got Object');
    expect(() => registerDouble(queue, doubleOf(queue)!)).toThrow('this Queue is already registered');
    expect(bucketLayer(queue)).toBeUndefined(); // the S3 view reaches only a bucket's layer
  });

  it('refuses what is no double, naming what it got', () => {
    expect(() => expect({}).toHaveReceived()).toThrow('toHaveReceived: expected a Bucket, a DnsApi or an S3Api from edge-doubles, got Object');
    expect(() => logOnFailure({} as never)).toThrow('logOnFailure: expected a Bucket, a DnsApi, an S3Api or a Queue from edge-doubles, got Object');
  });
});
