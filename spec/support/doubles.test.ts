/**
 * One test-support interface for every double (lib/support/double.ts, registered once in
 * lib/support/registry.ts): the snapshot rule per double, the S3Api as a double (snapshot, restore,
 * reset, its call log read through its buckets), and a double the matchers were never told about.
 */
import { describe, expect, it } from 'vitest';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  GetObjectCommand,
  PutBucketCorsCommand,
  GetBucketCorsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import 'edge-doubles/vitest';
import { logOnFailure, testFault } from 'edge-doubles/vitest';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';
import { S3Api } from 'edge-doubles/s3';
import { assertNoObject, assertNotReceived, assertObject, assertReceived } from 'edge-doubles';
import { checkReceived } from '../../lib/support/matchers.js';
import { checkObject, ObjectReader } from '../../lib/bucket/object-matcher.js';
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
    expect(() => a.restore(new DnsApi().snapshot() as never)).toThrow(
      new TypeError('Bucket.restore: not a snapshot taken by Bucket.snapshot()'),
    );
    expect(() => a.restore(new S3Api().snapshot() as never)).toThrow(TypeError);
  });

  it('DnsApi: into itself only', () => {
    const a = new DnsApi();
    expect(() => a.restore(new DnsApi().snapshot())).toThrow(
      new TypeError('DnsApi.restore: not a snapshot taken by this DnsApi'),
    );
    expect(() => a.restore(new Bucket().snapshot() as never)).toThrow(TypeError);
    a.restore(a.snapshot());
  });

  it('S3Api: into itself only (its snapshot names its buckets)', () => {
    const shared = new Bucket();
    const a = new S3Api({ buckets: { shared } });
    const b = new S3Api({ buckets: { shared } });
    expect(() => b.restore(a.snapshot())).toThrow(new TypeError('S3Api.restore: not a snapshot taken by this S3Api'));
    expect(() => a.restore(shared.snapshot() as never)).toThrow(
      new TypeError('S3Api.restore: not a snapshot taken by this S3Api'),
    );
    expect(() => a.restore({ buckets: 1 })).toThrow(TypeError);
    a.restore(a.snapshot());
  });
});

describe('S3Api as a double', () => {
  it('snapshot and restore: the buckets served, what each holds, and their CORS rules', async () => {
    const photos = new Bucket({ seed: { a: 'one' } });
    const old = new Bucket({ seed: { x: 'kept' } });
    const { s3, client } = served({ photos, old });
    await client.send(
      new PutBucketCorsCommand({
        Bucket: 'photos',
        CORSConfiguration: { CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['https://a.example'] }] },
      }),
    );
    const s = s3.snapshot();
    expect(s).toEqual({ buckets: 2 });

    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a', Body: 'changed' }));
    await photos.put('b', 'new');
    await client.send(new CreateBucketCommand({ Bucket: 'later' }));
    await old.delete('x');
    await client.send(new DeleteBucketCommand({ Bucket: 'old' }));
    await client.send(
      new PutBucketCorsCommand({
        Bucket: 'photos',
        CORSConfiguration: { CORSRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['*'] }] },
      }),
    );

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

  it("restore and reset clear the served buckets' faults and logs; reset keeps the buckets and their CORS rules", async () => {
    const photos = new Bucket({ seed: { a: 'one' }, log: true });
    const { s3, client } = served({ photos });
    await client.send(
      new PutBucketCorsCommand({
        Bucket: 'photos',
        CORSConfiguration: { CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }] },
      }),
    );
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

  it('toHaveObject and assertObject name the bucket as the first segment of the path: "<bucket>/<key>"', async () => {
    const photos = new Bucket({ log: true });
    const docs = new Bucket({ seed: { 'a/b.txt': 'seeded' } });
    const { s3, client } = served({ photos, docs });
    // README: s3-objects
    await client.send(
      new PutObjectCommand({ Bucket: 'photos', Key: 'cats/tom.jpg', Body: 'meow', ContentType: 'image/jpeg' }),
    );

    expect(s3).toHaveObject('photos/cats/tom.jpg', { body: 'meow', httpMetadata: { contentType: 'image/jpeg' } });
    expect(s3).not.toHaveObject('docs/cats/tom.jpg'); // another bucket
    expect(s3.bucket('photos')).toHaveObject('cats/tom.jpg'); // the same, through the Bucket itself
    // README: end
    assertObject(s3, 'docs/a/b.txt', { body: 'seeded' });
    assertNoObject(s3, 'docs/a');
    await photos.put('/lead', 'x'); // a key may begin with a slash: only the first one separates
    expect(s3).toHaveObject('photos//lead');

    const missing = checkObject(s3, 'photos/cats/tim.jpg');
    expect(missing.pass).toBe(false);
    expect(missing.message()).toContain(
      'expected bucket "photos" to have an object at "cats/tim.jpg", but there is none.\nNearest keys: "cats/tom.jpg"',
    );
    const differs = checkObject(s3, 'photos/cats/tom.jpg', { body: 'purr' });
    expect(differs.pass).toBe(false);
    expect(differs.actual).toEqual({ body: 'meow' });
    // The calls on that key, from the S3Api's log: this bucket's only.
    expect(differs.message()).toMatch(
      /expected the object at "photos\/cats\/tom.jpg" to match the expectation; it differs\.\nCalls on "cats\/tom.jpg" \(last 1\):\n.*bucket.*\n.*\n1\s+photos\s+.*put \(s3\)\s+cats\/tom.jpg/,
    );

    // A path that names no served bucket is a mistake, not a missing object (even under .not).
    expect(() => expect(s3).not.toHaveObject('videos/cats/tom.jpg')).toThrow(
      'toHaveObject: "videos/cats/tom.jpg": the S3Api serves no bucket "videos" (buckets served: "photos", "docs")',
    );
    expect(() => expect(s3).toHaveObject('tom.jpg')).toThrow(
      'toHaveObject: "tom.jpg": it names no bucket: give "<bucket>/<key>"',
    );
    expect(() => expect(s3).toHaveObject('/photos/cats/tom.jpg')).toThrow(TypeError);
  });

  it('toHaveObject follows the buckets served now: a bucket served under two names, one deleted by S3', async () => {
    const shared = new Bucket({ seed: { k: 'v' } });
    const { s3, client } = served({ one: shared, two: shared, gone: new Bucket() });
    expect(s3).toHaveObject('one/k');
    expect(s3).toHaveObject('two/k');
    await client.send(new DeleteBucketCommand({ Bucket: 'gone' }));
    expect(() => expect(s3).toHaveObject('gone/k')).toThrow('the S3Api serves no bucket "gone"');
  });

  it('has no fault rules of its own: testFault on it says to arm the bucket, whose rule fails the S3 call', async () => {
    const photos = new Bucket();
    const { s3, client } = served({ photos });
    expect(() => testFault(s3 as never, { op: 'put' } as never)).toThrow(
      "testFault: an S3Api has no fault rules of its own: arm them on the bucket (testFault(s3.bucket('name')!, rule)); they catch its S3 calls",
    );
    testFault(s3.bucket('photos')!, { op: 'put', error: 'rateLimit', times: Infinity });
    const refused = await client
      .send(new PutObjectCommand({ Bucket: 'photos', Key: 'k', Body: 'v' }))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'TooManyRequests', $metadata: { httpStatusCode: 429 } });
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
    const log = new CallLog<Ping, { word?: string }>(
      true,
      store,
      (e, q) => q.word === undefined || e.word === q.word,
      (e) => ({ word: e.word }),
    );
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
    expect(() => expect(queue).toHaveObject('k')).toThrow(
      'toHaveObject: expected a Bucket or an S3Api from edge-doubles, got Object',
    );
    expect(() => registerDouble(queue, doubleOf(queue)!)).toThrow('this Queue is already registered');
    expect(bucketLayer(queue)).toBeUndefined(); // the S3 view reaches only a bucket's layer
  });

  it('toHaveObject reads any double that says where its objects are, and nothing else of it', () => {
    const inner = new Bucket({ seed: { 'x.txt': 'inner' } });
    const layer = bucketLayer(inner)!;
    const archive = {};
    registerDouble(archive, {
      ...doubleOf(new DnsApi())!, // log, snapshot and the rest: not what toHaveObject reads
      name: 'Archive',
      readers: [
        new ObjectReader((path) => ({
          layer,
          key: path.replace(/^archive:/, ''),
          label: 'the archive',
          onBucket: () => true,
        })),
      ],
    });
    expect(archive).toHaveObject('archive:x.txt', { body: 'inner' });
    expect(checkObject(archive, 'archive:y.txt').message()).toContain(
      'expected the archive to have an object at "y.txt"',
    );
  });

  it('refuses what is no double, naming what it got', () => {
    expect(() => expect({}).toHaveReceived()).toThrow(
      'toHaveReceived: expected a Bucket, a DnsApi or an S3Api from edge-doubles, got Object',
    );
    expect(() => logOnFailure({} as never)).toThrow(
      'logOnFailure: expected a Bucket, a DnsApi, an S3Api or a Queue from edge-doubles, got Object',
    );
  });
});
