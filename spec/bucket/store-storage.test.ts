/**
 * Buckets kept by StoreStorage (lib/bucket/store-storage.ts), the storage `--persist` keeps them in,
 * over the in-memory Store (the SQLite engine's contract; spec/node/store tests the engine itself).
 * A new Bucket on the same Store and name (a restarted server) sees everything that was answered; a
 * commit the Store refuses (a full disk) changes nothing, in memory or stored; snapshots keep bytes
 * only until a reset or a restart.
 */
import {
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  PutBucketCorsCommand,
  PutBucketLifecycleConfigurationCommand,
} from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bucket } from '../../lib/bucket.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { lifecycleRules } from '../../lib/bucket/lifecycle.js';
import { bucketSpace, StoreStorage } from '../../lib/bucket/store-storage.js';
import { ManualClock } from '../../lib/clock.js';
import { SqliteStore } from '../../lib/node/store/sqlite-store.js';
import { S3Api } from '../../lib/s3.js';
import { MemoryStore, StoreFullError, type Store } from '../../lib/support/store.js';
import { CREDENTIALS, sdk } from '../s3/support.js';

const MiB = 1024 * 1024;
const bytes = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * 31 + seed) & 0xff);
const s3 = (bucket: Bucket) => sdk(new S3Api({ buckets: { photos: bucket }, credentials: [CREDENTIALS] }).fetch);
const chunks = (store: MemoryStore) => store.keys(bucketSpace('photos'), 'c/');

it('a bucket in a Store, taken up again by a new Bucket (a restarted server): objects, metadata, uploads and settings are there', async () => {
  const store = new MemoryStore();
  const first = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  const b = await first.put('b.txt', 'bee', {
    httpMetadata: { contentType: 'text/plain', cacheExpiry: new Date(Date.UTC(2031, 0, 1)) },
    customMetadata: { by: 'ann' },
  });
  await first.put('a.txt', 'ay');
  await first.put('\u{1F600}', 'emoji'); // R2 order (code points) puts it after \uFFFF
  await first.put('\uFFFF', 'last BMP');
  const large = await first.put('large', bytes(MiB + 5, 1)); // five chunk records
  const done = await first.createMultipartUpload('done.bin');
  const completed = await done.complete([
    await done.uploadPart(1, bytes(5 * MiB, 2)),
    await done.uploadPart(2, 'tail'),
  ]);
  const open = await first.createMultipartUpload('open.bin', { customMetadata: { kind: 'parts' } });
  const part1 = await open.uploadPart(1, bytes(5 * MiB, 3));
  await first.delete('a.txt');
  await first.put('a.txt', 'ay again');
  const client = s3(first);
  await client.send(
    new PutBucketCorsCommand({
      Bucket: 'photos',
      CORSConfiguration: { CORSRules: [{ AllowedOrigins: ['https://app.example'], AllowedMethods: ['GET'] }] },
    }),
  );
  await client.send(
    new PutBucketLifecycleConfigurationCommand({
      Bucket: 'photos',
      LifecycleConfiguration: {
        Rules: [{ ID: 'expire', Status: 'Enabled', Filter: { Prefix: 'logs/' }, Expiration: { Days: 3 } }],
      },
    }),
  );

  // Every call above had resolved: its commit is in the Store.
  const again = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  expect((await again.list()).objects.map((o) => o.key)).toEqual([
    'a.txt',
    'b.txt',
    'done.bin',
    'large',
    '\uFFFF',
    '\u{1F600}',
  ]);
  const gotB = await again.get('b.txt');
  expect(await gotB!.text()).toBe('bee');
  expect(gotB!.httpMetadata).toEqual({ contentType: 'text/plain', cacheExpiry: new Date(Date.UTC(2031, 0, 1)) });
  expect(gotB!.customMetadata).toEqual({ by: 'ann' });
  expect([gotB!.etag, gotB!.version, gotB!.uploaded.getTime()]).toEqual([b.etag, b.version, b.uploaded.getTime()]);
  expect(await (await again.get('a.txt'))!.text()).toBe('ay again');
  expect(await (await again.get('\u{1F600}'))!.text()).toBe('emoji');
  const gotLarge = await again.get('large');
  expect(gotLarge!.etag).toBe(large.etag);
  expect(Buffer.compare(new Uint8Array(await gotLarge!.arrayBuffer()), bytes(MiB + 5, 1))).toBe(0);
  const gotDone = await again.get('done.bin', { range: { offset: 5 * MiB - 2 } });
  expect(gotDone!.etag).toBe(completed.etag);
  expect([...new Uint8Array(await gotDone!.arrayBuffer())]).toEqual([
    ...bytes(5 * MiB, 2).subarray(5 * MiB - 2),
    ...new TextEncoder().encode('tail'),
  ]);

  // The upload in progress: its part is there, and it completes after the restart.
  const resumed = again.resumeMultipartUpload('open.bin', open.uploadId);
  const finished = await resumed.complete([part1, await resumed.uploadPart(2, 'end')]);
  expect(finished.size).toBe(5 * MiB + 3);
  expect(finished.customMetadata).toEqual({ kind: 'parts' });

  const view = s3(again);
  expect((await view.send(new GetBucketCorsCommand({ Bucket: 'photos' }))).CORSRules?.[0]?.AllowedOrigins).toEqual([
    'https://app.example',
  ]);
  expect(
    (await view.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'photos' }))).Rules?.map((r) => r.ID),
  ).toEqual(['expire']);
}, 30_000);

it('a commit the Store refuses (a full disk): the call rejects, nothing of it is stored or kept, the bucket goes on', async () => {
  const store = new MemoryStore();
  const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  const one = await bucket.put('doc', 'version one');
  store.failNext();
  await expect(bucket.put('doc', bytes(MiB, 6))).rejects.toThrow(StoreFullError);
  expect(await (await bucket.get('doc'))!.text()).toBe('version one');
  await expect(bucket.put('other', 'o')).resolves.toBeTruthy();
  expect((await bucket.head('doc'))!.etag).toBe(one.etag);
  const again = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  expect((await again.list()).objects.map((o) => [o.key, o.size])).toEqual([
    ['doc', 11],
    ['other', 1],
  ]);
  expect(chunks(store)).toEqual([]); // no chunk of the refused put (the small ones are kept with their records)
});

it('a refused settings change leaves the settings as they were', async () => {
  const store = new MemoryStore();
  const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  const client = s3(bucket);
  const cors = (origin: string) =>
    new PutBucketCorsCommand({
      Bucket: 'photos',
      CORSConfiguration: { CORSRules: [{ AllowedOrigins: [origin], AllowedMethods: ['GET'] }] },
    });
  await client.send(cors('https://one.example'));
  // As often as the SDK tries (it retries a 500): the change is refused every time.
  for (let i = 0; i < 3; i++) store.failNext();
  await expect(client.send(cors('https://two.example'))).rejects.toThrow();
  const shown = async (b: Bucket) =>
    (await s3(b).send(new GetBucketCorsCommand({ Bucket: 'photos' }))).CORSRules?.[0]?.AllowedOrigins;
  expect(await shown(bucket)).toEqual(['https://one.example']);
  expect(await shown(new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) }))).toEqual([
    'https://one.example',
  ]);
});

it('a snapshot keeps the bytes it needs while the process lives; a restart frees what no object refers to', async () => {
  const store = new MemoryStore();
  const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  const snapshots = [];
  for (let i = 0; i < 5; i++) {
    await bucket.put('big', bytes(MiB, i)); // four chunks each
    snapshots.push(bucket.snapshot());
  }
  expect(chunks(store)).toHaveLength(20); // every snapshot's bytes, while they may be restored
  bucket.restore(snapshots[1]!);
  expect((await bucket.get('big'))!.size).toBe(MiB);
  expect(Buffer.compare(new Uint8Array(await (await bucket.get('big'))!.arrayBuffer()), bytes(MiB, 1))).toBe(0);

  const again = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  expect(chunks(store)).toHaveLength(4); // only the object's own
  expect(Buffer.compare(new Uint8Array(await (await again.get('big'))!.arrayBuffer()), bytes(MiB, 1))).toBe(0);
});

it('a reset frees every byte, releasing the snapshots: restoring one taken before it is refused, not served empty', async () => {
  const store = new MemoryStore();
  const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  await bucket.put('big', bytes(MiB, 7));
  const before = bucket.snapshot();
  await bucket.put('big', bytes(MiB, 8));
  bucket.reset();
  expect(chunks(store)).toEqual([]);
  expect(() => bucket.restore(before)).toThrow('taken before the bucket was reset');
  expect((await bucket.list()).objects).toEqual([]);
  const after = bucket.snapshot();
  await bucket.put('k', 'v');
  bucket.restore(after);
  expect((await bucket.list()).objects).toEqual([]);
});

it('two buckets in one Store keep apart; a new bucket of a name used before sees nothing of the old one once its space is dropped', async () => {
  const store = new MemoryStore();
  const photos = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  const docs = new Bucket({ storage: new StoreStorage({ store, name: 'docs' }) });
  await photos.put('k', 'photo');
  await docs.put('k', 'doc');
  expect(await (await photos.get('k'))!.text()).toBe('photo');
  expect(store.spaces('bucket/').sort()).toEqual([bucketSpace('docs'), bucketSpace('photos')]);
  store.commit([{ space: bucketSpace('photos'), prefix: '', deleteAll: true }]);
  const made = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
  expect((await made.list()).objects).toEqual([]);
  expect(await (await docs.get('k'))!.text()).toBe('doc');
});

const text = async (bucket: Bucket, key: string) => (await bucket.get(key))?.text();

describe('a small body is kept with its object\u2019s record (one row a put, written in place)', () => {
  it('no chunk record for it; a larger body is in chunks; both read back after a restart', async () => {
    const store = new MemoryStore();
    const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
    await bucket.put('small', 'one');
    await bucket.put('small', 'two');
    await bucket.put('3k', bytes(3 * 1024, 1));
    await bucket.put('big', bytes(3 * 1024 + 1, 2));
    expect(chunks(store)).toHaveLength(1); // big's
    expect(new TextDecoder().decode(store.bytes(bucketSpace('photos'), 'o/small'))).toBe('two');
    const again = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
    expect(await text(again, 'small')).toBe('two');
    expect(Buffer.compare(new Uint8Array(await (await again.get('3k'))!.arrayBuffer()), bytes(3 * 1024, 1))).toBe(0);
    expect(Buffer.compare(new Uint8Array(await (await again.get('big'))!.arrayBuffer()), bytes(3 * 1024 + 1, 2))).toBe(
      0,
    );
    await again.delete('big');
    expect(chunks(store)).toEqual([]);
  });

  it('snapshots keep a replaced or deleted small body; each restore brings its own back, and a restart what was restored', async () => {
    const store = new MemoryStore();
    const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
    await bucket.put('k', 'first');
    const first = bucket.snapshot();
    await bucket.put('k', 'second'); // first's bytes leave the record's row: kept as a chunk
    const second = bucket.snapshot();
    await bucket.delete('k');
    await bucket.put('other', 'o');
    expect(await text(bucket, 'k')).toBeUndefined();
    bucket.restore(first);
    expect(await text(bucket, 'k')).toBe('first');
    bucket.restore(second);
    expect(await text(bucket, 'k')).toBe('second');
    bucket.restore(first);
    await bucket.put('k2', 'later');
    expect(await text(bucket, 'k')).toBe('first');
    bucket.restore(second);
    expect(await text(bucket, 'k')).toBe('second');
    bucket.restore(first);
    const again = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
    expect(await text(again, 'k')).toBe('first');
    expect(await text(again, 'k2')).toBeUndefined();
    expect(chunks(store)).toEqual(['c/' + (await again.head('k'))!.version + '/00000000']); // the one restored
    await again.put('k', 'third');
    expect(chunks(store)).toEqual([]);
    expect(await text(new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) }), 'k')).toBe('third');
  });

  it('a lifecycle transition rewrites the record and keeps its bytes, also under a snapshot', async () => {
    const store = new MemoryStore();
    const clock = new ManualClock(Date.parse('2030-01-01'));
    const bucket = new Bucket({ clock, storage: new StoreStorage({ store, name: 'photos' }) });
    const put = await bucket.put('k', 'kept');
    const before = bucket.snapshot();
    bucketLayer(bucket)!.config.lifecycle = lifecycleRules([
      {
        id: 'ia',
        enabled: true,
        conditions: {},
        storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
      },
    ]);
    clock.advance(86_400_000);
    expect((await bucket.head('k'))?.storageClass).toBe('InfrequentAccess');
    expect(await text(bucket, 'k')).toBe('kept');
    await bucket.put('k', 'replaced');
    bucket.restore(before);
    expect(await text(bucket, 'k')).toBe('kept');
    const again = new Bucket({ clock, storage: new StoreStorage({ store, name: 'photos' }) });
    const got = (await again.get('k'))!;
    expect([await got.text(), got.etag, got.storageClass]).toEqual(['kept', put.etag, 'Standard']);
  });

  it('the bytes of an object replaced since it was read are refused, never another object\u2019s', async () => {
    const store = new MemoryStore();
    const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'photos' }) });
    await bucket.put('k', 'old bytes');
    const layer = bucketLayer(bucket)!;
    const old = layer.model.head('k')!;
    await bucket.put('k', 'new bytes');
    await expect(Promise.resolve(layer.bytes(old, { offset: 0, length: 9 }))).rejects.toThrow('no longer stored');
  });
});

// node:sqlite is Node 22.13's and later; the SQLite Store in a temporary directory, in process.
const hasSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;

describe.skipIf(!hasSqlite)(
  `on the SQLite Store${hasSqlite ? '' : ' (skipped: node:sqlite needs Node 22.13 or later)'}`,
  () => {
    const withStore = async (test: (open: () => Store) => Promise<void>) => {
      const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-store-storage-'));
      const opened: SqliteStore[] = [];
      try {
        await test(() => {
          for (const s of opened) s.close();
          const store = SqliteStore.open(dir);
          opened.push(store);
          return store;
        });
      } finally {
        for (const s of opened) s.close();
        rmSync(dir, { recursive: true, force: true });
      }
    };

    it('keys that differ only in U+E000..U+E7FF (whose sort forms are lone surrogates) stay apart, across a restart', () =>
      withStore(async (open) => {
        const bucket = new Bucket({ storage: new StoreStorage({ store: open(), name: 'photos' }) });
        await bucket.put('\uE000', 'a');
        await bucket.put('\uE001', 'b');
        await bucket.put('x\uE7FF', 'c');
        await bucket.delete('\uE001');
        expect(await text(bucket, '\uE000')).toBe('a');
        const again = new Bucket({ storage: new StoreStorage({ store: open(), name: 'photos' }) });
        expect((await again.list()).objects.map((o) => o.key)).toEqual(['x\uE7FF', '\uE000']);
        expect(await text(again, '\uE000')).toBe('a');
        expect(await text(again, 'x\uE7FF')).toBe('c');
      }));
  },
);
