import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bucket, IndexedDbStorage, MemoryStorage } from '../../lib/bucket.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { lifecycleRules } from '../../lib/bucket/lifecycle.js';
import { ManualClock } from '../../lib/clock.js';

const MiB = 1024 * 1024;
const text = async (b: Bucket, key: string) => (await b.get(key))?.text();
const keys = async (b: Bucket) => (await b.list()).objects.map((o) => o.key);
function bytes(n: number, seed = 0): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}
/** Whether two byte arrays are equal (toEqual walks megabytes element by element, far too slowly). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A database's records, read directly (not through a bucket). */
async function records(
  factory: IDBFactory,
  name: string,
  store: string,
): Promise<{ keys: unknown[]; values: unknown[] }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = factory.open(name);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  try {
    const s = db.transaction(store, 'readonly').objectStore(store);
    const get = <T>(r: IDBRequest<T>) => new Promise<T>((resolve) => (r.onsuccess = () => resolve(r.result)));
    return { keys: await get(s.getAllKeys()), values: await get(s.getAll()) };
  } finally {
    db.close();
  }
}

/**
 * Aborts the transaction that writes the next record into `store`, right after that write: the
 * transaction has then written chunks, or a record, and dies before it commits, as when a page closes.
 */
const realPut = IDBObjectStore.prototype.put;
function abortNextWriteTo(store: string): void {
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    const r = realPut.apply(this, args);
    if (this.name === store) {
      IDBObjectStore.prototype.put = realPut;
      this.transaction.abort();
    }
    return r;
  } as IDBObjectStore['put'];
}
afterEach(() => {
  IDBObjectStore.prototype.put = realPut;
});

describe('IndexedDbStorage', () => {
  it('a new Bucket on the same database sees the objects, their metadata and their order', async () => {
    // README: indexeddb
    const indexedDB = new IDBFactory(); // fake-indexeddb in Node; a browser has its own `indexedDB`
    const first = new Bucket({ storage: new IndexedDbStorage({ name: 'uploads', indexedDB }) });
    await first.put('b.txt', 'bee', { httpMetadata: { contentType: 'text/plain' }, customMetadata: { by: 'ann' } });
    await first.put('a.txt', 'ay');

    // Later (a reload, another tab): a new Bucket on the same database.
    const again = new Bucket({ storage: new IndexedDbStorage({ name: 'uploads', indexedDB }) });
    const b = await again.get('b.txt');
    expect(await b?.text()).toBe('bee');
    expect(b?.httpMetadata).toEqual({ contentType: 'text/plain' });
    expect(b?.customMetadata).toEqual({ by: 'ann' });
    expect((await again.list()).objects.map((o) => o.key)).toEqual(['a.txt', 'b.txt']);
    // README: end
    const head = await first.head('b.txt');
    expect(b?.etag).toBe(head?.etag);
    expect(b?.version).toBe(head?.version);
    expect(b?.uploaded.getTime()).toBe(head?.uploaded.getTime());
  });

  it("keeps the key order R2 has (UTF-8 bytes), not JavaScript's", async () => {
    const indexedDB = new IDBFactory();
    const one = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    for (const k of ['😀', '\uFFFF', 'a', '\uE000']) await one.put(k, k);
    const two = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    expect(await keys(two)).toEqual(['a', '\uE000', '\uFFFF', '😀']);
  });

  it('keeps multipart uploads and their parts: another bucket completes an upload this one began', async () => {
    const indexedDB = new IDBFactory();
    const one = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    const upload = await one.createMultipartUpload('big.bin', { customMetadata: { kind: 'parts' } });
    const p1 = await upload.uploadPart(1, bytes(5 * MiB, 1));
    const p2 = await upload.uploadPart(2, bytes(1000, 2));

    const two = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    const done = await two.resumeMultipartUpload('big.bin', upload.uploadId).complete([p1, p2]);
    expect(done.etag).toMatch(/-2$/);
    const got = await two.get('big.bin');
    expect(got?.customMetadata).toEqual({ kind: 'parts' });
    const body = new Uint8Array(await got!.arrayBuffer());
    expect(body.byteLength).toBe(5 * MiB + 1000);
    expect(same(body.subarray(0, 5 * MiB), bytes(5 * MiB, 1))).toBe(true);
    expect(same(body.subarray(5 * MiB), bytes(1000, 2))).toBe(true);
    // The upload is over for both buckets.
    await expect(one.resumeMultipartUpload('big.bin', upload.uploadId).uploadPart(3, 'x')).rejects.toThrow('(10024)');
  });

  it('stores a large body as many chunk records, and reads it back as a stream (ranges too)', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    const body = bytes(3 * MiB + 5);
    await bucket.put('large', body);
    const chunks = await records(indexedDB, 'db', 'chunks');
    expect(chunks.keys.length).toBeGreaterThan(4);
    for (const c of chunks.values) expect((c as Uint8Array).byteLength).toBeLessThanOrEqual(256 * 1024);

    const got = await bucket.get('large');
    const reader = got!.body.getReader();
    const parts: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    expect(parts.length).toBeGreaterThan(1);
    const joined = new Uint8Array(body.byteLength);
    let at = 0;
    for (const p of parts) joined.set(p, (at += p.byteLength) - p.byteLength);
    expect(same(joined, body)).toBe(true);

    const range = await bucket.get('large', { range: { offset: MiB - 3, length: 2 * MiB } });
    expect(same(new Uint8Array(await range!.arrayBuffer()), body.subarray(MiB - 3, 3 * MiB - 3))).toBe(true);
    expect(range!.range).toEqual({ offset: MiB - 3, length: 2 * MiB });
  });

  it('an upload found expired is aborted in the database too, by the call that finds it so', async () => {
    const indexedDB = new IDBFactory();
    const clock = new ManualClock(Date.parse('2025-01-01'));
    const bucket = new Bucket({ clock, storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    const upload = await bucket.createMultipartUpload('late');
    await upload.uploadPart(1, bytes(MiB));
    expect((await records(indexedDB, 'db', 'chunks')).keys.length).toBe(4);
    clock.advance(7 * 24 * 60 * 60 * 1000);
    await expect(upload.uploadPart(2, 'more')).rejects.toThrow('(10024)');
    // The refusal stored the abort: its parts' chunks are gone, and a reloaded bucket agrees.
    expect((await records(indexedDB, 'db', 'chunks')).keys).toEqual([]);
    expect(((await records(indexedDB, 'db', 'uploads')).values[0] as { state: string }).state).toBe('aborted');
  });

  it('a large body streamed after its object was replaced fails, never mixing two versions', async () => {
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB: new IDBFactory() }) });
    await bucket.put('big', bytes(2 * MiB));
    const got = await bucket.get('big'); // more than 1 MiB: read a chunk at a time, as it is pulled
    await bucket.put('big', 'replaced');
    await expect(got!.arrayBuffer()).rejects.toThrow('are no longer in the database');
    const small = await bucket.get('big'); // up to 1 MiB is read in the get's own transaction
    await bucket.delete('big');
    expect(await small!.text()).toBe('replaced');
  });

  it('deleting or replacing an object deletes its chunks', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    await bucket.put('x', bytes(MiB));
    await bucket.put('x', 'small now');
    expect((await records(indexedDB, 'db', 'chunks')).keys.length).toBe(1);
    await bucket.delete('x');
    expect((await records(indexedDB, 'db', 'chunks')).keys).toEqual([]);
    expect((await records(indexedDB, 'db', 'objects')).keys).toEqual([]);
  });
});

describe('IndexedDbStorage: lifecycle rules', () => {
  const DAY = 86_400_000;
  const toInfrequentAccess = [
    {
      id: 'ia',
      enabled: true,
      conditions: {},
      storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
    },
  ];

  it('a transition rewrites the object records only: no chunk written or deleted, bytes and etags kept, seen by another bucket', async () => {
    const indexedDB = new IDBFactory();
    const clock = new ManualClock(Date.parse('2030-01-01'));
    const bucket = new Bucket({ clock, storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    const single = await bucket.put('single', bytes(300_000, 1)); // two chunk records
    const upload = await bucket.createMultipartUpload('multi'); // its bytes are its part's records
    const multi = await upload.complete([await upload.uploadPart(1, bytes(1000, 2))]);
    bucketLayer(bucket)!.config.lifecycle = lifecycleRules(toInfrequentAccess);
    const chunksBefore = (await records(indexedDB, 'db', 'chunks')).keys;
    expect(chunksBefore).toHaveLength(3);

    const writes: string[] = [];
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      writes.push(this.name);
      return realPut.apply(this, args);
    } as IDBObjectStore['put'];
    clock.advance(DAY);
    const head = await bucket.head('single'); // the pass runs first, in its own transaction
    IDBObjectStore.prototype.put = realPut;

    expect(head?.storageClass).toBe('InfrequentAccess');
    expect(writes.filter((w) => w === 'objects')).toHaveLength(2);
    expect(writes).not.toContain('chunks');
    expect((await records(indexedDB, 'db', 'chunks')).keys).toEqual(chunksBefore);
    const stored = (await records(indexedDB, 'db', 'objects')).values as { storageClass: string }[];
    expect(stored.map((r) => r.storageClass)).toEqual(['InfrequentAccess', 'InfrequentAccess']);

    const again = new Bucket({ clock, storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    for (const [key, put, body] of [
      ['single', single, bytes(300_000, 1)],
      ['multi', multi, bytes(1000, 2)],
    ] as const) {
      const got = (await again.get(key))!;
      expect([got.storageClass, got.etag, got.version, got.uploaded.getTime()]).toEqual([
        'InfrequentAccess',
        put.etag,
        put.version,
        put.uploaded.getTime(),
      ]);
      expect(same(new Uint8Array(await got.arrayBuffer()), body)).toBe(true);
    }
  });

  it('an expiry deletes the object record and its chunks', async () => {
    const indexedDB = new IDBFactory();
    const clock = new ManualClock(Date.parse('2030-01-01'));
    const bucket = new Bucket({ clock, storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    await bucket.put('gone', bytes(MiB));
    await bucket.put('kept/x', 'x');
    bucketLayer(bucket)!.config.lifecycle = lifecycleRules([
      {
        id: 'x',
        enabled: true,
        conditions: { prefix: 'gone' },
        deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
      },
    ]);
    clock.advance(DAY);
    expect(await keys(bucket)).toEqual(['kept/x']);
    expect((await records(indexedDB, 'db', 'objects')).keys).toEqual(['kept/x']);
    expect((await records(indexedDB, 'db', 'chunks')).keys).toHaveLength(1);
  });
});

describe('IndexedDbStorage: an interrupted write leaves the previous state', () => {
  it('a put whose transaction aborts after writing its chunks leaves the previous object, whole', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    await bucket.put('doc', 'version one');
    const before = await records(indexedDB, 'db', 'chunks');

    abortNextWriteTo('chunks'); // the new body is half written when the transaction dies
    await expect(bucket.put('doc', bytes(2 * MiB))).rejects.toThrow();
    expect(await text(bucket, 'doc')).toBe('version one');
    expect(await records(indexedDB, 'db', 'chunks')).toEqual(before);

    abortNextWriteTo('objects'); // the chunks and the record are written, the commit never comes
    await expect(bucket.put('doc', 'version two')).rejects.toThrow();
    expect(await text(bucket, 'doc')).toBe('version one');

    // A bucket opened afterwards (the reloaded page) sees the same.
    const reloaded = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    expect(await text(reloaded, 'doc')).toBe('version one');
    expect((await reloaded.head('doc'))?.size).toBe(11);
    expect(await records(indexedDB, 'db', 'chunks')).toEqual(before);

    // And the bucket goes on working.
    await bucket.put('doc', 'version three');
    expect(await text(reloaded, 'doc')).toBe('version three');
  });

  it('a complete whose transaction aborts leaves the previous object and the upload as they were', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    await bucket.put('video', 'old');
    const upload = await bucket.createMultipartUpload('video');
    const parts = [await upload.uploadPart(1, bytes(5 * MiB)), await upload.uploadPart(2, 'tail')];

    abortNextWriteTo('objects');
    await expect(upload.complete(parts)).rejects.toThrow();
    expect(await text(bucket, 'video')).toBe('old');
    const reloaded = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    expect(await text(reloaded, 'video')).toBe('old');

    // The upload is still active with its parts: completing it again works.
    const done = await reloaded.resumeMultipartUpload('video', upload.uploadId).complete(parts);
    expect(done.size).toBe(5 * MiB + 4);
    expect((await bucket.head('video'))?.etag).toBe(done.etag);
  });

  it('a delete whose transaction aborts deletes nothing', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    await bucket.put('a', 'A');
    await bucket.put('b', 'B');
    abortNextWriteTo('meta'); // every writing transaction ends by bumping the sequence number
    await expect(bucket.delete(['a', 'b'])).rejects.toThrow();
    expect(await keys(bucket)).toEqual(['a', 'b']);
  });
});

describe('IndexedDbStorage: two buckets on one database (two tabs) are strongly consistent', () => {
  it('a write through one is seen by the next read through the other', async () => {
    const indexedDB = new IDBFactory();
    const tabA = new Bucket({ storage: new IndexedDbStorage({ name: 'shared', indexedDB }) });
    const tabB = new Bucket({ storage: new IndexedDbStorage({ name: 'shared', indexedDB }) });
    expect(await tabB.head('k')).toBeNull();
    const put = await tabA.put('k', 'from A');
    expect(await text(tabB, 'k')).toBe('from A');
    // A conditional write in B sees A's etag; A sees B's write at once.
    expect(await tabB.put('k', 'stale', { onlyIf: { etagDoesNotMatch: put.etag } })).toBeNull();
    await tabB.put('k', 'from B', { onlyIf: { etagMatches: put.etag } });
    expect(await text(tabA, 'k')).toBe('from B');
    await tabA.put('other', '1');
    expect(await keys(tabB)).toEqual(['k', 'other']);
    await tabB.delete('k');
    expect(await tabA.head('k')).toBeNull();
    expect(await keys(tabA)).toEqual(['other']);
  });

  it('an upload begun in one is completed in the other; a bucket far behind catches up', async () => {
    const indexedDB = new IDBFactory();
    const tabA = new Bucket({ storage: new IndexedDbStorage({ name: 'shared', indexedDB }) });
    const tabB = new Bucket({ storage: new IndexedDbStorage({ name: 'shared', indexedDB }) });
    await tabB.put('seen-by-b', '1'); // B has a cache now: it catches up key by key from here
    const upload = await tabA.createMultipartUpload('joined');
    const part = await upload.uploadPart(1, 'only part');
    const getAll = vi.spyOn(IDBObjectStore.prototype, 'getAll');
    const done = await tabB.resumeMultipartUpload('joined', upload.uploadId).complete([part]);
    expect(getAll).not.toHaveBeenCalled(); // B read the two changed records, not every record
    getAll.mockRestore();
    expect(await text(tabA, 'joined')).toBe('only part');
    expect((await tabA.head('joined'))?.etag).toBe(done.etag);
    await expect(upload.abort()).resolves.toBeUndefined(); // aborting a completed upload is allowed, and changes nothing
    expect(await text(tabB, 'joined')).toBe('only part');

    // 300 writes through A: more than B can catch up with record by record, so it reloads.
    for (let i = 0; i < 300; i++) await tabA.put(`n/${String(i).padStart(3, '0')}`, String(i));
    await tabA.delete('seen-by-b');
    const listed = await tabB.list({ prefix: 'n/' });
    expect(listed.objects).toHaveLength(300);
    expect(await tabB.head('seen-by-b')).toBeNull();
    expect(await text(tabB, 'n/299')).toBe('299');
  });

  it('concurrent conditional creates through both: exactly one wins', async () => {
    const indexedDB = new IDBFactory();
    const tabA = new Bucket({ storage: new IndexedDbStorage({ name: 'shared', indexedDB }) });
    const tabB = new Bucket({ storage: new IndexedDbStorage({ name: 'shared', indexedDB }) });
    const onlyIf = { etagDoesNotMatch: '*' };
    const [a, b] = await Promise.all([tabA.put('lock', 'A', { onlyIf }), tabB.put('lock', 'B', { onlyIf })]);
    expect([a, b].filter((r) => r !== null)).toHaveLength(1);
    expect(await text(tabA, 'lock')).toBe(a ? 'A' : 'B');
    expect(await text(tabB, 'lock')).toBe(a ? 'A' : 'B');
  });
});

describe('IndexedDbStorage: snapshot, restore and reset', () => {
  it("restore brings back the snapshot's objects and bodies, even ones deleted or replaced since", async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({
      storage: new IndexedDbStorage({ name: 'db', indexedDB }),
      seed: { 'a.txt': 'A', big: bytes(MiB) },
    });
    const seeded = bucket.snapshot();
    await bucket.put('a.txt', 'changed');
    await bucket.delete('big');
    await bucket.put('c.txt', 'new');
    bucket.restore(seeded);
    expect(await keys(bucket)).toEqual(['a.txt', 'big']);
    expect(await text(bucket, 'a.txt')).toBe('A');
    expect(same(new Uint8Array(await (await bucket.get('big'))!.arrayBuffer()), bytes(MiB))).toBe(true);
    // What the restore put back is in the database: a new bucket sees it.
    const reloaded = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    expect(await keys(reloaded)).toEqual(['a.txt', 'big']);

    bucket.reset();
    expect(await keys(bucket)).toEqual([]);
    expect(await keys(reloaded)).toEqual([]);
    bucket.restore(seeded); // the snapshot's bodies outlive a reset
    expect(await text(bucket, 'a.txt')).toBe('A');
    expect((await bucket.head('big'))?.size).toBe(MiB);
  });

  it('refuses snapshots across storages', () => {
    const memory = new Bucket();
    const idb = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB: new IDBFactory() }) });
    expect(() => idb.restore(memory.snapshot())).toThrow('cannot be restored into a bucket on a persistent storage');
    expect(() => memory.restore(idb.snapshot())).toThrow('can be restored only into that bucket');
  });
});

describe('IndexedDbStorage: options', () => {
  it('needs a name, and an indexedDB where the runtime has none', () => {
    expect(() => new IndexedDbStorage({ name: '', indexedDB: new IDBFactory() })).toThrow(
      "'name' must be a non-empty string",
    );
    expect('indexedDB' in globalThis).toBe(false);
    expect(() => new IndexedDbStorage({ name: 'db' })).toThrow('this runtime has no indexedDB');
  });

  it('indexedDB defaults to the global one', async () => {
    const global = new IDBFactory();
    vi.stubGlobal('indexedDB', global);
    try {
      const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'from-global' }) });
      await bucket.put('k', 'v');
      expect((await records(global, 'from-global', 'objects')).keys).toEqual(['k']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a database deleted from elsewhere: the bucket lets it go, and starts afresh', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'db', indexedDB }) });
    await bucket.put('k', 'v');
    await new Promise((resolve, reject) => {
      const r = indexedDB.deleteDatabase('db');
      r.onsuccess = resolve;
      r.onerror = reject;
    });
    expect(await bucket.head('k')).toBeNull();
    await bucket.put('k2', 'v2');
    expect(await keys(bucket)).toEqual(['k2']);
  });

  it('a storage serves one bucket', () => {
    const storage = new MemoryStorage();
    new Bucket({ storage });
    expect(() => new Bucket({ storage })).toThrow('already serves another Bucket');
  });
});

describe("IndexedDbStorage: exclusive (the only user of its database, as a --persist server's buckets)", () => {
  it('neither reads nor bumps the sequence per operation, and a Bucket opened later still sees everything', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'alone', indexedDB, exclusive: true }) });
    await bucket.put('a', 'one');
    const seq = await records(indexedDB, 'alone', 'meta');
    const changes = await records(indexedDB, 'alone', 'changes');
    await bucket.put('b', 'two');
    await bucket.delete('a');
    await bucket.put('c', 'three');
    // The sequence and the journal of changes are as the first write left them: no write touched them.
    expect(await records(indexedDB, 'alone', 'meta')).toEqual(seq);
    expect(await records(indexedDB, 'alone', 'changes')).toEqual(changes);
    expect(await keys(bucket)).toEqual(['b', 'c']);
    // A Bucket made on the database afterwards (the server started again) reads it whole.
    const later = new Bucket({ storage: new IndexedDbStorage({ name: 'alone', indexedDB, exclusive: true }) });
    expect(await keys(later)).toEqual(['b', 'c']);
    expect(await text(later, 'c')).toBe('three');
  });

  it('after a write that aborted, reads the database again rather than trusting its cache', async () => {
    const indexedDB = new IDBFactory();
    const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'alone', indexedDB, exclusive: true }) });
    await bucket.put('doc', 'version one');
    abortNextWriteTo('objects');
    await expect(bucket.put('doc', 'version two')).rejects.toThrow();
    expect(await text(bucket, 'doc')).toBe('version one');
    await bucket.put('doc', 'version three');
    expect(await text(new Bucket({ storage: new IndexedDbStorage({ name: 'alone', indexedDB }) }), 'doc')).toBe(
      'version three',
    );
  });
});
