/**
 * Issue 27 (`--persist`): buckets kept by IndexedDbStorage over LmdbIndexedDb. The LMDB environment
 * closed and opened again (a restarted server): a new Bucket on a new IndexedDbStorage of the same
 * name sees the objects (bytes, metadata, etags, versions, order), the multipart uploads in progress
 * with their parts, and the settings (CORS, lifecycle). A commit LMDB refuses leaves the previous
 * state; a database deleted under a Bucket is let go.
 */
import {
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  PutBucketCorsCommand,
  PutBucketLifecycleConfigurationCommand,
} from '@aws-sdk/client-s3';
import { afterEach, expect, it, vi } from 'vitest';
import { Bucket, IndexedDbStorage } from '../../../lib/bucket/index.js';
import type { IdbDatabase } from '../../../lib/bucket/idb-types.js';
import { S3Api } from '../../../lib/s3/index.js';
import { LmdbIndexedDb } from '../../../lib/node/persist/lmdb-indexeddb.js';
import { TempLmdb } from '../../helpers/lmdb.js';
import { CREDENTIALS, sdk } from '../../s3/support.js';

const MiB = 1024 * 1024;
const bytes = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * 31 + seed) & 0xff);
const s3 = (bucket: Bucket) => sdk(new S3Api({ buckets: { photos: bucket }, credentials: [CREDENTIALS] }).fetch);

let env: TempLmdb | undefined;
afterEach(() => env?.remove());

it('a bucket on LMDB, the environment closed and opened again: objects, metadata, uploads and settings are there', async () => {
  env = new TempLmdb();
  const first = new Bucket({ storage: new IndexedDbStorage({ name: 'photos', indexedDB: env.indexedDB() }) });
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

  await env.reopen(); // every call above had resolved: its transaction is in LMDB

  const again = new Bucket({ storage: new IndexedDbStorage({ name: 'photos', indexedDB: env.indexedDB() }) });
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

it('a database deleted under a Bucket (deleteDatabase, as for a deleted bucket): the Bucket lets it go and starts afresh; another database is untouched', async () => {
  env = new TempLmdb();
  const indexedDB = env.indexedDB();
  const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'photos', indexedDB }) });
  const other = new Bucket({ storage: new IndexedDbStorage({ name: 'photos-2', indexedDB }) });
  await bucket.put('k', bytes(MiB, 4));
  await other.put('kept', 'kept');
  await new Promise((resolve, reject) => {
    const r = indexedDB.deleteDatabase('photos');
    r.onsuccess = resolve;
    r.onerror = reject;
  });
  expect(await bucket.head('k')).toBeNull();
  await bucket.put('k2', 'v2');
  expect((await bucket.list()).objects.map((o) => o.key)).toEqual(['k2']);
  expect(await (await other.get('kept'))!.text()).toBe('kept');
  expect((await indexedDB.databases()).map((d) => d.name)).toEqual(['photos', 'photos-2']);
});

it('settled() waits for the calls in flight: a put not awaited is in LMDB once it settles', async () => {
  env = new TempLmdb();
  const indexedDB = env.indexedDB();
  const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'photos', indexedDB }) });
  const puts = Promise.all([bucket.put('one', '1'), bucket.put('two', bytes(MiB, 5))]);
  await new Promise((resolve) => setImmediate(resolve)); // the first transaction has begun
  await indexedDB.settled();
  await env.reopen();
  const again = new Bucket({ storage: new IndexedDbStorage({ name: 'photos', indexedDB: env.indexedDB() }) });
  expect((await again.list()).objects.map((o) => o.key)).toEqual(['one', 'two']);
  await puts;
});

it('a commit LMDB refuses (a full disk, an I/O error): the call rejects, nothing of it is stored, the bucket goes on', async () => {
  env = new TempLmdb();
  const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'photos', indexedDB: env.indexedDB() }) });
  const one = await bucket.put('doc', 'version one');
  const refuse = vi.spyOn(LmdbIndexedDb.prototype, 'commit').mockImplementationOnce(() => {
    throw new Error('MDB_MAP_FULL: Environment mapsize limit reached');
  });
  await expect(bucket.put('doc', bytes(MiB, 6))).rejects.toThrow('MDB_MAP_FULL');
  await expect(bucket.put('other', 'o')).resolves.toBeTruthy();
  refuse.mockRestore();
  expect(await (await bucket.get('doc'))!.text()).toBe('version one');
  expect((await bucket.head('doc'))!.etag).toBe(one.etag);
  await env.reopen();
  const again = new Bucket({ storage: new IndexedDbStorage({ name: 'photos', indexedDB: env.indexedDB() }) });
  expect((await again.list()).objects.map((o) => [o.key, o.size])).toEqual([
    ['doc', 11],
    ['other', 1],
  ]);
  expect(await chunkKeys(env.indexedDB(), 'photos')).toHaveLength(2); // no chunk of the refused put
});

/** The keys of a database's `chunks` store, read directly. */
async function chunkKeys(indexedDB: LmdbIndexedDb, name: string): Promise<unknown[]> {
  const r = indexedDB.open(name);
  const db = await new Promise<IdbDatabase>((resolve) => (r.onsuccess = () => resolve(r.result)));
  const keys = db.transaction('chunks').objectStore('chunks').getAllKeys();
  const out = await new Promise<unknown[]>((resolve) => (keys.onsuccess = () => resolve(keys.result)));
  db.close();
  return out;
}
