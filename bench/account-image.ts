/**
 * Issue 27 point 2: what the account image behind `--persist` costs a server (lib/node/persist).
 * The engine calls `write` after every request that may have changed state and on a timer, so a
 * write that finds nothing changed must cost next to nothing, and one that finds a change must cost
 * what changed, not the state.
 *
 * An account of 100 zones × 100 records plus one zone of 10,000, 50 queues × 200 messages plus one
 * of 10,000, and 50 buckets: the median time of a write with nothing changed, after one record
 * changed in the big zone, after one message sent to the big queue, and of loading it all. The
 * store is a plain Map (the writer's own cost; SQLite's is the engine's).
 */
import { Account } from '../lib/account/account.js';
import { accountState } from '../lib/account/state.js';
import { Bucket } from '../lib/bucket/bucket.js';
import { IndexedDbStorage } from '../lib/bucket/indexeddb-storage.js';
import { CloudflareApi } from '../lib/cloudflare-api/cloudflare-api.js';
import { DNS } from '../lib/dns/backend.js';
import {
  AccountImageWriter,
  loadAccountImage,
  persistedAccount,
  type ImageStore,
} from '../lib/node/persist/account-image.js';
import { createAccountQueue } from '../lib/queue/account-queues.js';
import { IDBFactory } from 'fake-indexeddb';
import { median } from './stats.js';
import { printTable } from './table.js';

/** A Map as the store, counting puts and removes. */
function mapStore(): ImageStore & { ops: number } {
  const m = new Map<string, unknown>();
  const s = {
    ops: 0,
    get: (k: string) => m.get(k),
    put: (k: string, v: unknown) => {
      s.ops++;
      m.set(k, v);
    },
    remove: (k: string) => {
      s.ops++;
      m.delete(k);
    },
    keys: (p: string) => [...m.keys()].filter((k) => k.startsWith(p)).sort(),
  };
  return s;
}

function medianUs(runs: number, fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

const record = (i: number) => ({
  type: 'A',
  name: `host-${i}`,
  content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  ttl: 300,
});

async function filled() {
  const factory = new IDBFactory();
  const api = new CloudflareApi();
  const state = accountState(api.account);
  for (let z = 0; z < 100; z++)
    api.addZone({
      name: `zone-${z}.example`,
      plan: 'enterprise',
      records: Array.from({ length: 100 }, (_, i) => record(i)),
    });
  api.addZone({
    name: 'big.example',
    plan: 'enterprise',
    records: Array.from({ length: 10_000 }, (_, i) => record(i)),
  });
  for (let b = 0; b < 50; b++)
    api.account.addBucket(
      `bucket-${b}`,
      new Bucket({ storage: new IndexedDbStorage({ name: `storage-${b}`, indexedDB: factory }) }),
    );
  for (let q = 0; q < 50; q++) {
    const { queue } = createAccountQueue(state, `queue-${q}`, {});
    await queue.sendBatch(Array.from({ length: 100 }, (_, i) => ({ body: `m${i}` })));
    await queue.sendBatch(Array.from({ length: 100 }, (_, i) => ({ body: `n${i}` })));
  }
  const big = createAccountQueue(state, 'big', {}).queue;
  for (let i = 0; i < 100; i++) await big.sendBatch(Array.from({ length: 100 }, (_, j) => ({ body: { i, j } })));
  return { api, big, factory };
}

export async function benchAccountImage(): Promise<void> {
  const { api, big, factory } = await filled();
  const store = mapStore();
  const writer = new AccountImageWriter({ account: api.account, api });
  let t0 = performance.now();
  writer.write(store);
  const first = performance.now() - t0;
  const keys = store.ops;

  store.ops = 0;
  medianUs(5000, () => writer.write(store)); // warm-up: the median is of the optimised code
  const idle = medianUs(5000, () => writer.write(store));
  const idleOps = store.ops;

  const zone = api.zones.find((z) => z.name === 'big.example')!;
  const ids = api.records(zone.id).map((r) => r.id);
  let n = 0;
  store.ops = 0;
  const oneRecord = medianUs(200, () => {
    const id = ids[n++ % ids.length]!;
    accountState(api.account)
      .backend(DNS)
      .zones.get(zone.id)!
      .update(id, { ...record(n + 20_000) }, 'put');
    writer.write(store);
  });
  const recordOps = store.ops / 200;

  store.ops = 0;
  const sends: number[] = [];
  for (let i = 0; i < 200; i++) {
    await big.send({ extra: i });
    t0 = performance.now();
    writer.write(store);
    sends.push((performance.now() - t0) * 1000);
  }
  const sendOps = store.ops / 200;

  t0 = performance.now();
  const account = new Account({ ...persistedAccount(store)! });
  const target = { account, api: new CloudflareApi({ account }) };
  loadAccountImage(store, target, (name) => new IndexedDbStorage({ name, indexedDB: factory }));
  const load = performance.now() - t0;
  const after = new AccountImageWriter(target).write(store);

  printTable(
    'account image (--persist): write and load costs',
    ['case', 'median', 'keys written'],
    [
      ['first write (everything)', `${first.toFixed(0)} ms`, String(keys)],
      ['write, nothing changed', `${idle.toFixed(1)} µs`, String(idleOps)],
      ['write after one record put (zone of 10,000)', `${oneRecord.toFixed(1)} µs`, recordOps.toFixed(1)],
      ['write after one send (queue of 10,000)', `${median(sends).toFixed(0)} µs`, sendOps.toFixed(1)],
      ['load everything', `${load.toFixed(0)} ms`, after ? 'wrote after load!' : '0 after load'],
    ],
    ["101 zones (20,000 records), 51 queues (20,000 messages), 50 buckets; store: a Map (the writer's own cost)."],
  );
}
