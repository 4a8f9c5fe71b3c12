/**
 * LmdbIndexedDb (lib/node/persist): the IndexedDB semantics IndexedDbStorage relies on, over a real
 * LMDB environment in a temporary directory. Key order is checked against fake-indexeddb's
 * `cmp`, which follows the IndexedDB specification.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdbDatabase, IdbRequest, IdbTransaction } from '../../../lib/bucket/idb-types.js';
import type { LmdbIndexedDb } from '../../../lib/node/persist/lmdb-indexeddb.js';
import { TempLmdb } from '../../helpers/lmdb.js';

const reference = new IDBFactory();
const idbOrder = (keys: unknown[]) => [...keys].sort((a, b) => reference.cmp(a, b));

const request = <T>(r: IdbRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

const finished = (tx: IdbTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('aborted'));
  });

/** Opens `name` at `version`, creating `stores` in the upgrade; says whether an upgrade ran and from which version. */
async function openDb(
  idb: LmdbIndexedDb,
  name: string,
  version?: number,
  stores = ['s'],
): Promise<{ db: IdbDatabase; upgradedFrom?: number }> {
  let upgradedFrom: number | undefined;
  const r = idb.open(name, version);
  r.onupgradeneeded = ((e: { oldVersion: number }) => {
    upgradedFrom = e.oldVersion;
    for (const s of stores) if (!r.result.objectStoreNames.contains(s)) r.result.createObjectStore(s);
  }) as never;
  const db = await request(r);
  return { db, upgradedFrom };
}

/** Runs `work` in one transaction on store 's' and waits for it to commit; returns what work resolved to. */
async function inTx<T>(
  db: IdbDatabase,
  mode: 'readonly' | 'readwrite',
  work: (s: ReturnType<IdbTransaction['objectStore']>, tx: IdbTransaction) => Promise<T>,
): Promise<T> {
  const tx = db.transaction('s', mode);
  const done = finished(tx);
  const out = await work(tx.objectStore('s'), tx);
  await done;
  return out;
}

let env: TempLmdb;
let idb: LmdbIndexedDb;
beforeEach(() => {
  env = new TempLmdb();
  idb = env.indexedDB();
});
afterEach(() => env.remove());

describe("LmdbIndexedDb: key order is IndexedDB's", () => {
  const units = [
    0, 1, 0x41, 0x7e, 0x7f, 0x80, 0xff, 0x100, 0x407e, 0x407f, 0x4080, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000,
    0xfffe, 0xffff,
  ];
  const fixed: unknown[] = [
    '',
    'a',
    'b',
    'ab',
    'a\0',
    '\0',
    '\uFFFF',
    '\u{10000}',
    '\uE000',
    '\u{1F600}',
    '\u007F',
    '\u007E',
    '\u0080',
    '\u407E',
    '\u407F',
    'Z',
    0,
    -1,
    1,
    1.5,
    -1.5,
    1e300,
    -1e300,
    Infinity,
    -Infinity,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    2 ** 53,
    [],
    [''],
    ['a'],
    ['a', 0],
    ['a', 1],
    ['a', 'b'],
    [0],
    [-1],
    [[]],
    [['a']],
    ['a', []],
    [1, 'x'],
    ['\uFFFF'],
    ['\u{10000}'],
  ];

  function randomKey(rand: () => number, depth = 0): unknown {
    const kind = rand();
    if (kind < 0.3) return Math.round((rand() - 0.5) * 1000) / (rand() < 0.5 ? 1 : 7);
    if (kind < 0.8 || depth > 2) {
      let s = '';
      const n = Math.floor(rand() * 5);
      for (let i = 0; i < n; i++) s += String.fromCharCode(units[Math.floor(rand() * units.length)]!);
      return s;
    }
    return Array.from({ length: Math.floor(rand() * 4) }, () => randomKey(rand, depth + 1));
  }

  function seeded(seed: number): () => number {
    return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  }

  /** Distinct keys (by the reference cmp), shuffled. */
  function keySet(): unknown[] {
    const rand = seeded(27);
    const all = [...fixed];
    for (let i = 0; i < 400; i++) all.push(randomKey(rand));
    const distinct: unknown[] = [];
    for (const k of idbOrder(all))
      if (distinct.length === 0 || reference.cmp(distinct[distinct.length - 1], k) !== 0) distinct.push(k);
    return distinct.sort(() => rand() - 0.5);
  }

  it('orders keys from LMDB as IndexedDB does: numbers, strings by UTF-16 unit, arrays element-wise', async () => {
    const keys = keySet();
    const { db } = await openDb(idb, 'order');
    await inTx(db, 'readwrite', async (s) => {
      for (const [i, k] of keys.entries()) s.put(i, k);
    });
    const [gotKeys, gotValues] = await inTx(db, 'readonly', (s) =>
      Promise.all([request(s.getAllKeys()), request(s.getAll())]),
    );
    const expected = idbOrder(keys);
    expect(gotKeys).toEqual(expected);
    expect(gotValues).toEqual(expected.map((k) => keys.findIndex((x) => reference.cmp(x, k) === 0)));
    // The cases lmdb's own string order gets wrong: U+E000–U+FFFF before supplementary characters in UTF-8.
    const strings = (gotKeys as unknown[]).filter((k) => typeof k === 'string');
    expect(strings.indexOf('\u{10000}')).toBeLessThan(strings.indexOf('\uE000'));
    expect(strings.indexOf('\uE000')).toBeLessThan(strings.indexOf('\uFFFF'));
  });

  it("orders a transaction's own writes among the stored records the same way", async () => {
    const keys = keySet();
    const half = Math.floor(keys.length / 2);
    const { db } = await openDb(idb, 'order');
    await inTx(db, 'readwrite', async (s) => {
      for (const k of keys.slice(0, half)) s.put('stored', k);
    });
    const got = await inTx(db, 'readwrite', async (s) => {
      for (const k of keys.slice(half)) s.put('own', k);
      s.delete(keys[0]); // a stored record deleted in the transaction
      return Promise.all([request(s.getAllKeys()), request(s.getAll())]);
    });
    const expected = idbOrder(keys.slice(1));
    expect(got[0]).toEqual(expected);
    expect(got[1]).toHaveLength(expected.length);
  });

  it('gives back the keys it was given, -0 as 0', async () => {
    const { db } = await openDb(idb, 'keys');
    const got = await inTx(db, 'readwrite', async (s) => {
      s.put('v', ['seg', 3]);
      s.put('v', -0);
      return request(s.getAllKeys());
    });
    expect(got).toEqual([0, ['seg', 3]]);
    expect(Object.is(got[0], 0)).toBe(true);
  });

  it('refuses what is not a key, synchronously, as DataError', async () => {
    const { db } = await openDb(idb, 'keys');
    const tx = db.transaction('s', 'readwrite');
    const s = tx.objectStore('s');
    for (const bad of [NaN, {}, null, undefined, true, [1, {}]])
      expect(() => s.put('v', bad)).toThrow(expect.objectContaining({ name: 'DataError' }));
    expect(() => s.put('v', 'x'.repeat(2000))).toThrow(expect.objectContaining({ name: 'DataError' }));
    await finished(tx);
  });
});

describe('LmdbIndexedDb: transactions', () => {
  it('a transaction reads its own writes (put, delete, clear) before it commits', async () => {
    const { db } = await openDb(idb, 'own');
    await inTx(db, 'readwrite', async (s) => {
      s.put('old', 'a');
      s.put('old', 'b');
    });
    await inTx(db, 'readwrite', async (s) => {
      s.put('new', 'a');
      expect(await request(s.get('a'))).toBe('new');
      s.delete('b');
      expect(await request(s.get('b'))).toBeUndefined();
      expect(await request(s.getAllKeys())).toEqual(['a']);
      s.clear();
      expect(await request(s.getAll())).toEqual([]);
      expect(await request(s.get('a'))).toBeUndefined();
      s.put('after clear', 'c');
      expect(await request(s.getAll())).toEqual(['after clear']);
    });
    expect(await inTx(db, 'readonly', (s) => request(s.getAllKeys()))).toEqual(['c']);
  });

  it('abort() leaves nothing in LMDB, even after a restart; onabort fires, and the pending requests fail', async () => {
    const { db } = await openDb(idb, 'abort');
    await inTx(db, 'readwrite', async (s) => void s.put('kept', 'k'));
    const tx = db.transaction('s', 'readwrite');
    const s = tx.objectStore('s');
    s.put('written', 'w');
    s.delete('k');
    expect(await request(s.get('w'))).toBe('written');
    const pending = request(s.get('k'));
    const aborted = new Promise<unknown>((resolve) => (tx.onabort = () => resolve(tx.error)));
    tx.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await aborted).toBeNull(); // IndexedDB: an explicit abort has no error
    expect(() => tx.abort()).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    expect(() => s.put('late', 'l')).toThrow(expect.objectContaining({ name: 'TransactionInactiveError' }));

    expect(await inTx(db, 'readonly', (st) => request(st.getAll()))).toEqual(['kept']);
    await env.reopen();
    const again = (await openDb(env.indexedDB(), 'abort')).db;
    expect(
      await inTx(again, 'readonly', (st) => Promise.all([request(st.getAllKeys()), request(st.getAll())])),
    ).toEqual([['k'], ['kept']]);
  });

  it('a callback that throws aborts the transaction, with its writes', async () => {
    const { db } = await openDb(idb, 'throws');
    const tx = db.transaction('s', 'readwrite');
    const s = tx.objectStore('s');
    s.put('w', 'w');
    const r = s.get('w');
    r.onsuccess = (() => {
      throw new Error('the caller failed');
    }) as never;
    await expect(finished(tx)).rejects.toMatchObject({ name: 'AbortError' });
    expect(await inTx(db, 'readonly', (st) => request(st.getAll()))).toEqual([]);
  });

  it('commits when no request is pending, continuing through success callbacks and their microtasks', async () => {
    const { db } = await openDb(idb, 'chain');
    const tx = db.transaction('s', 'readwrite');
    const done = finished(tx);
    const s = tx.objectStore('s');
    // Each step awaits the previous request through two promise layers before placing the next.
    const step = async (n: number): Promise<void> => {
      const prev = (await request(s.get(n - 1))) as number | undefined;
      s.put((prev ?? 0) + 1, n);
    };
    for (let n = 0; n < 5; n++) await (async () => step(n))();
    await done;
    expect(await inTx(db, 'readonly', (st) => request(st.getAll()))).toEqual([1, 2, 3, 4, 5]);
    // A request after the commit is refused.
    expect(() => s.get(0)).toThrow(expect.objectContaining({ name: 'TransactionInactiveError' }));
  });

  it('readonly transactions write nothing: put, delete and clear throw ReadOnlyError', async () => {
    const { db } = await openDb(idb, 'ro');
    await inTx(db, 'readwrite', async (s) => void s.put(1, 'one'));
    await inTx(db, 'readonly', async (s) => {
      expect(() => s.put(2, 'two')).toThrow(expect.objectContaining({ name: 'ReadOnlyError' }));
      expect(() => s.delete('one')).toThrow(expect.objectContaining({ name: 'ReadOnlyError' }));
      expect(() => s.clear()).toThrow(expect.objectContaining({ name: 'ReadOnlyError' }));
    });
    expect(await inTx(db, 'readonly', (s) => request(s.getAll()))).toEqual([1]);
  });

  it('a write transaction waits for the earlier one on the same store, and sees what it committed', async () => {
    const { db } = await openDb(idb, 'serial');
    const first = db.transaction('s', 'readwrite');
    const second = db.transaction('s', 'readwrite');
    const order: string[] = [];
    const firstDone = finished(first).then(() => order.push('first committed'));
    const secondDone = finished(second).then(() => order.push('second committed'));
    const seen = request(second.objectStore('s').get('k')).then((v) => {
      order.push('second read');
      return v;
    });
    const s1 = first.objectStore('s');
    await request(s1.get('k'));
    s1.put('from first', 'k');
    await Promise.all([firstDone, secondDone]);
    expect(await seen).toBe('from first');
    expect(order).toEqual(['first committed', 'second read', 'second committed']);
  });

  it('a committed write is in LMDB when oncomplete fires: a restart right after sees it', async () => {
    const { db } = await openDb(idb, 'durable');
    await inTx(db, 'readwrite', async (s) => void s.put({ n: 1 }, 'k'));
    await env.reopen();
    const again = (await openDb(env.indexedDB(), 'durable')).db;
    expect(await inTx(again, 'readonly', (s) => request(s.get('k')))).toEqual({ n: 1 });
  });
});

describe('LmdbIndexedDb: values come back as they were stored', () => {
  it('plain objects, arrays, Uint8Array (its own buffer), undefined fields, Date, Map; cloned at put', async () => {
    const { db } = await openDb(idb, 'values');
    const bytes = new Uint8Array([1, 2, 3]);
    const value = {
      s: 'x',
      n: 1.5,
      a: [1, 'two', { three: 3 }],
      b: bytes,
      u: undefined,
      d: new Date(5),
      m: new Map([['k', 1]]),
      nul: null,
      t: true,
    };
    await inTx(db, 'readwrite', async (s) => {
      s.put(value, 'v');
      bytes[0] = 9; // after put: not stored
      value.s = 'changed';
    });
    const got = (await inTx(db, 'readonly', (s) => request(s.get('v')))) as typeof value;
    expect(got).toEqual({ ...value, s: 'x', b: new Uint8Array([1, 2, 3]) });
    expect('u' in got).toBe(true);
    expect(got.b.constructor).toBe(Uint8Array);
    expect(got.b.buffer.byteLength).toBe(3);
    expect(got.m).toBeInstanceOf(Map);
    expect(got.d).toBeInstanceOf(Date);
  });

  it('a 256 KiB chunk and a 5 MiB value round-trip (LMDB overflow pages)', async () => {
    const { db } = await openDb(idb, 'big');
    const chunk = new Uint8Array(256 * 1024).map((_, i) => i * 7);
    const big = new Uint8Array(5 * 1024 * 1024).map((_, i) => i * 13);
    await inTx(db, 'readwrite', async (s) => {
      s.put(chunk, ['seg', 0]);
      s.put(big, ['seg', 1]);
    });
    const [a, b] = (await inTx(db, 'readonly', (s) =>
      Promise.all([request(s.get(['seg', 0])), request(s.get(['seg', 1]))]),
    )) as Uint8Array[];
    expect(Buffer.compare(a!, chunk)).toBe(0);
    expect(Buffer.compare(b!, big)).toBe(0);
  });
});

describe('LmdbIndexedDb: databases, versions and stores', () => {
  it('fires onupgradeneeded on the first open and on a higher version, never on the same; keeps stores across a restart', async () => {
    const first = await openDb(idb, 'v', 1, ['a']);
    expect(first.upgradedFrom).toBe(0);
    expect(first.db.objectStoreNames.contains('a')).toBe(true);
    first.db.close();
    const same = await openDb(idb, 'v', 1, ['never']);
    expect(same.upgradedFrom).toBeUndefined();
    expect(same.db.objectStoreNames.contains('never')).toBe(false);
    expect(() => same.db.createObjectStore('x')).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    const noVersion = await openDb(idb, 'v');
    expect(noVersion.upgradedFrom).toBeUndefined();

    const higher = await openDb(idb, 'v', 2, ['a', 'b']);
    expect(higher.upgradedFrom).toBe(1);
    await env.reopen();
    const reopened = await openDb(env.indexedDB(), 'v', 2, []);
    expect(reopened.upgradedFrom).toBeUndefined();
    expect(['a', 'b', 'c'].map((s) => reopened.db.objectStoreNames.contains(s))).toEqual([true, true, false]);
    await expect(openDb(env.indexedDB(), 'v', 1)).rejects.toMatchObject({ name: 'VersionError' });
    expect(await env.indexedDB().databases()).toEqual([{ name: 'v', version: 2 }]);
  });

  it("databases are separate; deleteDatabase tells open connections and removes only that database's records", async () => {
    const one = (await openDb(idb, 'one')).db;
    const onePlus = (await openDb(idb, 'one+')).db; // a name that extends the other's
    await inTx(one, 'readwrite', async (s) => void s.put('1', 'k'));
    await inTx(onePlus, 'readwrite', async (s) => void s.put('1+', 'k'));
    expect(await inTx(one, 'readonly', (s) => request(s.getAll()))).toEqual(['1']);
    let told = false;
    one.onversionchange = (() => {
      told = true;
      one.close();
    }) as never;
    await request(idb.deleteDatabase('one'));
    expect(told).toBe(true);
    expect(await idb.databases()).toEqual([{ name: 'one+', version: 1 }]);
    expect(await inTx(onePlus, 'readonly', (s) => request(s.getAll()))).toEqual(['1+']);
    const fresh = await openDb(idb, 'one');
    expect(fresh.upgradedFrom).toBe(0);
    expect(await inTx(fresh.db, 'readonly', (s) => request(s.getAll()))).toEqual([]);
  });
});

describe('LmdbIndexedDb: two over one environment', () => {
  it('order their transactions together: a writer through one waits for a writer through the other', async () => {
    const other = env.indexedDB();
    const a = (await openDb(idb, 'shared')).db;
    const b = (await openDb(other, 'shared')).db;
    const first = a.transaction('s', 'readwrite');
    const second = b.transaction('s', 'readwrite');
    const seen = request(second.objectStore('s').get('k'));
    const s1 = first.objectStore('s');
    await request(s1.get('k'));
    s1.put('from a', 'k');
    await finished(first);
    expect(await seen).toBe('from a');
  });
});
