/**
 * The account image behind `--persist` (issue 27 point 2): state made through the API as wrangler
 * and the SDK make it (zones, records, zone settings, the account's DNS settings and views, buckets
 * in two jurisdictions, queues with sent,
 * delayed and retried messages, their consumers and purge status, a bucket job, temporary
 * credentials, the credential table),
 * written into a store, then loaded into a fresh API over a fresh Account with the persisted id:
 * the API answers the same, the SOA serial does not go back, messages are delivered afterwards with
 * their attempts, and a write after the load writes nothing. A write after a deletion leaves no key
 * of what was deleted. Over a Map, and over the SQLite Store where this Node has node:sqlite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { IDBFactory } from 'fake-indexeddb';
import { Account } from '../../../lib/account/account.js';
import { R2 } from '../../../lib/bucket/backend.js';
import { accountState } from '../../../lib/account/state.js';
import { Bucket } from '../../../lib/bucket/bucket.js';
import { IndexedDbStorage } from '../../../lib/bucket/indexeddb-storage.js';
import { CloudflareApi } from '../../../lib/cloudflare-api/cloudflare-api.js';
import { createAccountQueue } from '../../../lib/queue/account-queues.js';
import { QUEUES, type QueueRecord } from '../../../lib/queue/backend.js';
import { changeZoneSettings, zoneSettings } from '../../../lib/dns/zone-settings.js';
import { DNS } from '../../../lib/dns/backend.js';
import { ManualClock, systemClock } from '../../../lib/clock.js';
import { AccountImageWriter, loadAccountImage, persistedAccount } from '../../../lib/node/persist/account-image.js';
import { S3Api } from '../../../lib/s3/api.js';
import { r2Client } from '../../s3/client.js';
import { CREDENTIALS, ENDPOINT } from '../../s3/support.js';
import { checkSection } from '../../helpers/dnssec.js';
import { STORES, type TestStore } from './stores.js';

const BASE = 'https://api.cloudflare.com/client/v4';
const TOKEN = 't'.repeat(40);
const T0 = Date.parse('2026-11-28T06:00:00Z');

/** One server's life: an account (new, or with the persisted id), the API over it, an S3 view. */
function server(factory: IDBFactory, store: TestStore | undefined, start = T0, writeEach?: TestStore) {
  const clock = new ManualClock(start);
  const persisted = store && persistedAccount(store);
  const account = new Account({ ...(persisted ?? { credentials: [{ token: TOKEN }] }), clock });
  const api = new CloudflareApi({ account, clock });
  // As a --persist server does: every bucket the surfaces make lives in a named storage.
  const open = (name: string) => new IndexedDbStorage({ name, indexedDB: factory });
  accountState(account)
    .backend(R2)
    .keepBucketsIn(() => open(crypto.randomUUID()));
  const s3 = new S3Api({ api, clock, signatureClock: systemClock, credentials: [CREDENTIALS] });
  const target = { account, api };
  if (store && persisted) loadAccountImage(store, target, open);
  const writer = new AccountImageWriter(target);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await api.fetch(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    // As the engine does: a write after every request, before the answer is read.
    if (writeEach) writeEach.commit(() => writer.write(writeEach));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    const json = (await res.json()) as { success: boolean; result: any; errors: unknown[] };
    if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.errors)}`);
    return json.result;
  };
  const write = (s: TestStore) => s.commit(() => writer.write(s));
  return { clock, account, api, s3, call, write, a: `/accounts/${account.id}` };
}
type Server = ReturnType<typeof server>;

const turn = () => new Promise((r) => setTimeout(r, 0));

/** What a server is made to hold, through the API; returns the ids a test reads back. */
async function build(s: Server) {
  const { call, clock, a } = s;
  const zone = (await call('POST', '/zones', { name: 'example.com', account: { id: s.account.id } })).id as string;
  const www = await call('POST', `/zones/${zone}/dns_records`, {
    type: 'A',
    name: 'www.example.com',
    content: '192.0.2.1',
    ttl: 300,
    comment: 'web',
  });
  await call('POST', `/zones/${zone}/dns_records`, {
    type: 'MX',
    name: 'example.com',
    content: 'mail.example.com',
    priority: 10,
    ttl: 1,
  });
  const gone = await call('POST', `/zones/${zone}/dns_records`, { type: 'TXT', name: 'example.com', content: '"bye"' });
  clock.advance(5_000);
  await call('PATCH', `/zones/${zone}/dns_records/${www.id}`, { comment: 'the web', tags: [] });
  await call('DELETE', `/zones/${zone}/dns_records/${gone.id}`);
  // A plan change rewrites the zone's own record (its version does not move).
  await call('PATCH', `/zones/${zone}`, { paused: true, plan: { id: 'a577b510288e82b26486fd1df47000ec' } });
  await call('PATCH', `/zones/${zone}/dns_settings`, {
    ns_ttl: 3600,
    soa: { refresh: 7200 },
    flatten_all_cnames: true,
    nameservers: { type: 'custom.account', ns_set: 2 },
  });
  await call('PATCH', `/zones/${zone}/dnssec`, { status: 'active', dnssec_use_nsec3: true });
  const other = (await call('POST', '/zones', { name: 'other.org', account: { id: s.account.id } })).id as string;
  await call('POST', `/zones/${other}/dns_records`, { type: 'AAAA', name: 'other.org', content: '2001:db8::1' });

  await call('PATCH', `${a}/dns_settings`, { enforce_dns_only: true, zone_defaults: { ns_ttl: 3600 } });
  await call('POST', `${a}/dns_settings/views`, { name: 'office', zones: [zone] });
  await call('POST', `${a}/r2/buckets`, { name: 'photos', storageClass: 'InfrequentAccess' });
  clock.advance(1_000);
  await call('POST', `${a}/r2/buckets`, { name: 'photos', locationHint: 'weur' }, { 'cf-r2-jurisdiction': 'eu' });
  await s.account.bucket('photos')!.put('cat.jpg', 'meow');

  const jobs = (await call('POST', `${a}/queues`, { queue_name: 'jobs', settings: { delivery_delay: 0 } }))
    .queue_id as string;
  await call('PATCH', `${a}/queues/${jobs}`, { settings: { message_retention_period: 3600 } });
  await call('POST', `${a}/queues/${jobs}/consumers`, { type: 'http_pull', settings: { max_retries: 5 } });
  await call('POST', `${a}/queues/${jobs}/messages`, { body: 'now', content_type: 'text' });
  await call('POST', `${a}/queues/${jobs}/messages`, { body: { n: 1 }, content_type: 'json', delay_seconds: 600 });
  await call('POST', `${a}/queues/${jobs}/messages`, { body: 'again', content_type: 'text' });
  const pulled = (await call('POST', `${a}/queues/${jobs}/messages/pull`, { batch_size: 10 })).messages as {
    id: string;
    body: string;
    lease_id: string;
  }[];
  expect(pulled.map((m) => m.body)).toEqual(['now', 'again']);
  await call('POST', `${a}/queues/${jobs}/messages/ack`, {
    acks: [{ lease_id: pulled[0]!.lease_id }],
    retries: [{ lease_id: pulled[1]!.lease_id, delay_seconds: 60 }],
  });
  await turn();
  const events = (await call('POST', `${a}/queues`, { queue_name: 'events' })).queue_id as string;
  await call('POST', `${a}/queues/${events}/purge`, { delete_messages_permanently: true });
  await call('DELETE', `${a}/r2/buckets/photos/objects?prefix=tmp/`);
  const worker = (await call('POST', `${a}/queues/${events}/consumers`, {
    type: 'worker',
    script_name: 'handler',
    settings: { batch_size: 5 },
  })) as { consumer_id: string };
  // An update replaces the consumer in the queue's record: the image keeps the new one.
  await call('PUT', `${a}/queues/${events}/consumers/${worker.consumer_id}`, {
    type: 'worker',
    script_name: 'handler',
    dead_letter_queue: 'events-dlq',
    settings: { batch_size: 7, max_retries: 2 },
  });
  await call('POST', `${a}/queues/${events}/messages`, { body: 'for the worker', content_type: 'text' });

  const minted = await call('POST', `${a}/r2/temp-access-credentials`, {
    bucket: 'photos',
    parentAccessKeyId: CREDENTIALS.accessKeyId,
    permission: 'object-read-only',
    ttlSeconds: 3600,
  });
  return {
    zone,
    other,
    jobs,
    events,
    retried: pulled[1]!.id,
    minted: minted as { accessKeyId: string; secretAccessKey: string; sessionToken: string },
  };
}

/** What the API answers about everything `build` made. */
async function observe(s: Server, ids: Awaited<ReturnType<typeof build>>) {
  const { call, a } = s;
  const records = async (z: string) => (await call('GET', `/zones/${z}/dns_records?per_page=100`)) as unknown[];
  return {
    accounts: await call('GET', '/accounts'),
    zones: await call('GET', '/zones'),
    records: [await records(ids.zone), await records(ids.other)],
    dnsSettings: await call('GET', `/zones/${ids.zone}/dns_settings`),
    dnssec: await call('GET', `/zones/${ids.zone}/dnssec`),
    accountDns: await call('GET', `${a}/dns_settings`),
    views: await call('GET', `${a}/dns_settings/views`),
    buckets: await call('GET', `${a}/r2/buckets`),
    euBuckets: await call('GET', `${a}/r2/buckets`, undefined, { 'cf-r2-jurisdiction': 'eu' }),
    queues: await call('GET', `${a}/queues`),
    purgeStatus: await call('GET', `${a}/queues/${ids.events}/purge`),
    jobs: await call('GET', `${a}/r2/buckets/photos/jobs`),
    consumers: [
      await call('GET', `${a}/queues/${ids.jobs}/consumers`),
      await call('GET', `${a}/queues/${ids.events}/consumers`),
    ],
    held: [...accountState(s.account).backend(QUEUES).entries()].map(({ queue: q }) => ({
      queue: q.name,
      messages: q.pending.map((m) => [m.id, m.attempts, m.visibleAt.getTime()]),
    })),
  };
}

const serial = async (s: Server) => {
  const answer = await s.api.resolve('example.com', 'SOA');
  return (answer.answers[0]!.data as { serial: number }).serial;
};

describe.each(STORES)('the account image over %s', (_, makeStore) => {
  let store: TestStore;
  afterEach(async () => {
    await store.close();
  });
  /** A store, the IndexedDB the buckets' storages live in, and a first server with what `build` makes. */
  const built = async () => {
    store = makeStore();
    const factory = new IDBFactory();
    const first = server(factory, undefined);
    return { factory, first, ids: await build(first) };
  };

  it('brings back what the API made: the API answers the same, and a write after the load writes nothing', async () => {
    const { factory, first, ids } = await built();
    expect(first.write(store)).toBe(true);
    expect(first.write(store)).toBe(false); // nothing changed since
    const before = await observe(first, ids);
    const soa = await serial(first);

    const second = server(factory, store, first.clock.now());
    expect(second.account.id).toBe(first.account.id);
    expect(accountState(second.account).created).toBe(accountState(first.account).created);
    expect(second.write(store)).toBe(false);
    expect(await observe(second, ids)).toEqual(before);
    expect(await serial(second)).toBeGreaterThanOrEqual(soa);
    // The zone's DNSSEC keys came back: the restarted server signs with the keys served before it.
    const keys = (await first.api.resolve('example.com', 'DNSKEY')).answers;
    expect(keys).toHaveLength(2);
    expect((await second.api.resolve('example.com', 'DNSKEY')).answers).toEqual(keys);
    const signed = await second.api.resolve('example.com', 'SOA', { dnssec: true });
    expect(signed.answers.map((r) => r.type)).toEqual(['SOA', 'RRSIG']);
    expect(checkSection(signed.answers, keys)).toEqual([]);
    // The credential table came back: the restarted account was made without one, and still refuses other tokens.
    const other = await second.api.fetch(`${BASE}/zones`, { headers: { authorization: `Bearer ${'u'.repeat(40)}` } });
    expect(other.status).not.toBe(200);

    // The bucket's object, read with the temporary credentials minted before the restart.
    const client = r2Client(ENDPOINT, ids.minted, second.s3.fetch);
    const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'cat.jpg' }));
    expect(await got.Body!.transformToString()).toBe('meow');
    // The bucket's default storage class (a create option) is as made.
    expect(before.buckets.buckets.find((b: { name: string }) => b.name === 'photos').storage_class).toBe(
      'InfrequentAccess',
    );
  });

  it('keeps a field the image names nowhere: settings and queue records are kept whole', async () => {
    const { factory, first, ids } = await built();
    first.write(store);
    // Fields a later route might add: changed after a first write, they must reach the next one.
    const zone = accountState(first.account).backend(DNS).zones.get(ids.zone)!;
    changeZoneSettings(zone, (s) => Object.assign(s, { added: { by: 'a later route' } }));
    const state = accountState(first.account);
    const events = state.backend(QUEUES).entry('events')!;
    events.record = { ...events.record!, added: 7 } as QueueRecord;
    expect(first.write(store)).toBe(true);

    const second = server(factory, store, first.clock.now());
    const again = accountState(second.account);
    expect(zoneSettings(again.backend(DNS).zones.get(ids.zone)!)).toMatchObject({ added: { by: 'a later route' } });
    expect(again.backend(QUEUES).entry('events')!.record).toMatchObject({ added: 7 });
  });

  it('delivers the persisted messages afterwards, with their attempts and delays', async () => {
    const { factory, first, ids } = await built();
    first.write(store);

    const second = server(factory, store, first.clock.now());
    const q = `${second.a}/queues/${ids.jobs}/messages`;
    const pull = async () => {
      const got = (await second.call('POST', `${q}/pull`, { batch_size: 10 })).messages as {
        id: string;
        body: string;
        attempts: number;
        lease_id: string;
      }[];
      if (got.length) await second.call('POST', `${q}/ack`, { acks: got.map((m) => ({ lease_id: m.lease_id })) });
      await turn();
      return got.map((m) => [m.id, m.body, m.attempts]);
    };
    expect(await pull()).toEqual([]); // the retry waits its 60 s, the JSON message its 600 s
    second.clock.advance(60_000);
    expect(await pull()).toEqual([[ids.retried, 'again', 2]]);
    second.clock.advance(600_000);
    const later = await pull();
    expect(later.map(([, body, attempts]) => [body, attempts])).toEqual([['{"n":1}', 1]]);
    // Its id is the one it was sent with.
    const sent = (await observe(first, ids)).held.find((h) => h.queue === 'jobs')!.messages.map(([id]) => id);
    expect(sent).toContain(later[0]![0]);
  });

  it('a batch in delivery when written is delivered again after the restart, with the attempts it had', async () => {
    const { factory, first, ids } = await built();
    first.clock.advance(60_000);
    const leased = (await first.call('POST', `${first.a}/queues/${ids.jobs}/messages/pull`, {})).messages as {
      id: string;
      attempts: number;
    }[];
    expect(leased.map((m) => [m.id, m.attempts])).toEqual([[ids.retried, 2]]);
    first.write(store);
    const second = server(factory, store, first.clock.now());
    const again = (await second.call('POST', `${second.a}/queues/${ids.jobs}/messages/pull`, {})).messages as {
      id: string;
      attempts: number;
    }[];
    expect(again.map((m) => [m.id, m.attempts])).toEqual([[ids.retried, 2]]);
  });

  it('writing after every request stores what one write of everything at the end stores', async () => {
    store = makeStore();
    const whole = makeStore();
    try {
      const s = server(new IDBFactory(), undefined, T0, store);
      const ids = await build(s);
      await s.call('DELETE', `/zones/${ids.other}`);
      await s.call('DELETE', `${s.a}/queues/${ids.events}`);
      s.write(store); // what settled after the last request (the pull consumer's batch)
      whole.commit(() => new AccountImageWriter({ account: s.account, api: s.api }).write(whole));
      const dump = (t: TestStore) => Object.fromEntries(t.all().map((k) => [k, t.get(k)]));
      expect(dump(store)).toEqual(dump(whole));
      expect(store.all().length).toBeGreaterThan(15);
    } finally {
      await whole.close();
    }
  });

  it('keeps every kind of message body, R2 notifications and a dead-letter queue made on demand', async () => {
    store = makeStore();
    const factory = new IDBFactory();
    const first = server(factory, undefined);
    const state = accountState(first.account);
    const events = createAccountQueue(state, 'events', {}).queue;
    first.api.addBucket('photos');
    first.api.addEventNotification('photos', { queue: 'events', eventTypes: ['object-create'] });
    await first.account.bucket('photos')!.put('cat.jpg', 'meow'); // a notification: JSON made when first read
    await events.send(new Map([['when', new Date(0)]]), { contentType: 'v8' });
    await events.send(new Uint8Array([1, 2, 3]), { contentType: 'bytes' });
    await events.send('plain', { contentType: 'text', delaySeconds: 30 });
    const work = createAccountQueue(state, 'work', {}).queue;
    work.consume(
      () => {
        throw new Error('no');
      },
      { maxRetries: 0, deadLetterQueue: 'dead' },
    );
    await work.send({ job: 1 });
    await work.drain();
    expect(state.backend(QUEUES).entry('dead')!.record).toBeUndefined(); // no API record yet
    first.write(store);

    const held = (s: Server, name: string) =>
      accountState(s.account)
        .backend(QUEUES)
        .get(name)!
        .pending.map((m) => [m.id, m.body, m.attempts, m.visibleAt.getTime()]);
    const second = server(factory, store, first.clock.now());
    expect(second.write(store)).toBe(false);
    expect(held(second, 'events')).toEqual(held(first, 'events'));
    expect(held(second, 'events').map(([, body]) => body)).toEqual([
      expect.objectContaining({
        action: 'PutObject',
        bucket: 'photos',
        object: expect.objectContaining({ key: 'cat.jpg' }),
      }),
      new Map([['when', new Date(0)]]),
      new Uint8Array([1, 2, 3]),
      'plain',
    ]);
    expect(held(second, 'dead')).toEqual(held(first, 'dead'));
    expect(held(second, 'dead').map(([, body]) => body)).toEqual([{ job: 1 }]);
    expect(held(second, 'work')).toEqual([]);
  });

  it('keeps a queue whose name is too long for a key (a dead-letter queue is any name a consumer gives)', async () => {
    store = makeStore();
    const factory = new IDBFactory();
    const first = server(factory, undefined);
    const long = `dead/${'ж'.repeat(2000)}`;
    const work = createAccountQueue(accountState(first.account), 'work', {}).queue;
    work.consume(
      () => {
        throw new Error('no');
      },
      { maxRetries: 0, deadLetterQueue: long },
    );
    await work.send('lost?');
    await work.drain();
    first.write(store);
    expect(Math.max(...store.all().map((k) => k.length))).toBeLessThan(300);
    const second = server(factory, store, first.clock.now());
    expect(
      accountState(second.account)
        .backend(QUEUES)
        .get(long)!
        .pending.map((m) => m.body),
    ).toEqual(['lost?']);
  });

  it('what a server adds at start beside the persisted state (a credential given again) is written at the first write', async () => {
    const { factory, first } = await built();
    first.write(store);
    const extra = 'x'.repeat(40);
    const account = new Account({ ...persistedAccount(store)!, credentials: [{ token: extra }] });
    const api = new CloudflareApi({ account });
    // Here the server makes each persisted bucket itself, as it makes its own, with the options persisted.
    loadAccountImage(
      store,
      { account, api },
      (name, options) => new Bucket({ storage: new IndexedDbStorage({ name, indexedDB: factory }), ...options }),
    );
    const writer = new AccountImageWriter({ account, api });
    expect(store.commit(() => writer.write(store))).toBe(true);
    expect(store.commit(() => writer.write(store))).toBe(false);
    expect((store.get('credentials') as { tokens: [string][] }).tokens.map(([t]) => t).sort()).toEqual(
      [TOKEN, extra].sort(),
    );
    const list = async (a: CloudflareApi) =>
      (
        (await (
          await a.fetch(`${BASE}/accounts/${account.id}/r2/buckets`, { headers: { authorization: `Bearer ${TOKEN}` } })
        ).json()) as { result: unknown }
      ).result;
    expect(await list(api)).toEqual(await list(first.api));
    expect(
      await api.account
        .bucket('photos')!
        .get('cat.jpg')
        .then((o) => o?.text()),
    ).toBe('meow');
  });

  it('a write after deletions leaves no key of what was deleted', async () => {
    const { factory, first: s, ids } = await built();
    s.write(store);
    const keysOf = (needle: string) => store.all().filter((k) => k.includes(needle));
    expect(keysOf(ids.other).length).toBeGreaterThan(1); // the zone, its settings, its record
    const www = ((await s.call('GET', `/zones/${ids.zone}/dns_records?type=A`)) as { id: string }[])[0]!.id;
    expect(keysOf(www)).toHaveLength(1);

    await s.call('DELETE', `/zones/${ids.zone}/dns_records/${www}`);
    await s.call('DELETE', `/zones/${ids.other}`);
    await s.call('DELETE', `${s.a}/queues/${ids.events}`);
    await s.call('DELETE', `${s.a}/r2/buckets/photos`, undefined, { 'cf-r2-jurisdiction': 'eu' });
    expect(s.write(store)).toBe(true);
    expect(keysOf(www)).toEqual([]);
    expect(keysOf(ids.other)).toEqual([]);
    expect(keysOf('events')).toEqual([]);
    expect(store.keys('bucket/eu/')).toEqual([]);
    expect(store.keys('bucket/default/')).toEqual(['bucket/default/photos']);
    expect(store.get('zones')).toEqual([ids.zone]);

    // And what is left comes back as it is.
    const again = server(factory, store);
    expect(again.write(store)).toBe(false);
    expect((await again.call('GET', '/zones')).map((z: { id: string }) => z.id)).toEqual([ids.zone]);
    expect((await again.call('GET', `${again.a}/queues`)).map((q: { queue_name: string }) => q.queue_name)).toEqual([
      'jobs',
    ]);
  });

  it('records changed after a restart are written against what was loaded: the next restart sees exactly them', async () => {
    const { factory, first, ids } = await built();
    first.write(store);
    const second = server(factory, store, first.clock.now());
    const listed = async (s: Server) =>
      ((await s.call('GET', `/zones/${ids.zone}/dns_records?per_page=100`)) as { id: string; name: string }[])
        .map((r) => r.name)
        .sort();
    const loaded = await listed(second);
    const www = ((await second.call('GET', `/zones/${ids.zone}/dns_records?type=A`)) as { id: string }[])[0]!.id;
    await second.call('DELETE', `/zones/${ids.zone}/dns_records/${www}`);
    await second.call('POST', `/zones/${ids.zone}/dns_records`, {
      type: 'A',
      name: 'new.example.com',
      content: '192.0.2.9',
    });
    expect(second.write(store)).toBe(true);
    expect(store.all().filter((k) => k.includes(www))).toEqual([]);
    const third = server(factory, store, second.clock.now());
    expect(await listed(third)).toEqual(await listed(second));
    expect(await listed(third)).not.toEqual(loaded);
    expect(third.write(store)).toBe(false);
  });

  it('ids derived after a restart never repeat persisted ones', async () => {
    store = makeStore();
    const factory = new IDBFactory();
    const first = server(factory, undefined);
    const made = (await first.call('POST', '/zones', { name: 'again.net', account: { id: first.account.id } }))
      .id as string;
    await first.call('DELETE', `/zones/${made}`);
    first.write(store);
    // A restarted process counts from 0 again: without the persisted sequence the same name would get the same id.
    const second = server(factory, store, first.clock.now());
    const remade = (await second.call('POST', '/zones', { name: 'again.net', account: { id: second.account.id } }))
      .id as string;
    expect(remade).not.toBe(made);
  });
});
