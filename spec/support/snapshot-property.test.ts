/**
 * A property of the account's snapshot (issue 24): random operations across every surface (the
 * Worker's bucket binding, the S3 view, the DNS records API, a queue's producer binding, its
 * settings and its consumer over the API, the R2 control plane: buckets, r2.dev domains, notification rules that
 * send to the queue), a snapshot, more random operations, a restore;
 * then every surface observes exactly the state it observed at the snapshot. Seeded and bounded.
 */
import Cloudflare from 'cloudflare';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { Bucket, CloudflareApi, createEnv, S3Api } from '../../lib/index.js';
import type { Queue } from '../../lib/queue.js';
import { seeded } from '../../lib/random.js';
import { sdk } from '../s3/support.js';

const SEEDS = [1, 2, 3, 4];
const OPS = 30;
const KEYS = ['a', 'b', 'dir/c', 'dir/d'];
const BUCKETS = ['alpha', 'beta', 'gamma'];
const NAMES = ['one', 'two', 'three'];
const AUTH = { authorization: `Bearer ${'t'.repeat(40)}` };

function world() {
  const api = new CloudflareApi({ zones: [{ name: 'example.com' }], buckets: ['alpha'] });
  const account_id = api.account.id;
  const config = {
    compatibility_date: '2025-01-01',
    r2_buckets: [{ binding: 'ALPHA', bucket_name: 'alpha' }],
    queues: { producers: [{ binding: 'JOBS', queue: 'jobs' }] },
  };
  const { env, queues } = createEnv<{ ALPHA: Bucket; JOBS: Queue<string> }>(config, { api, onWarning: () => {} });
  const s3 = sdk(new S3Api({ api }).fetch);
  const cf = new Cloudflare({ apiToken: 't'.repeat(40), fetch: api.fetch, maxRetries: 0 });
  const zone_id = api.zone('example.com')!.id;
  const jobs = queues.get('jobs')!;
  return { api, account_id, env, jobs, s3, cf, zone_id };
}
type World = ReturnType<typeof world>;
const api = (w: World) => w.api;

/** One random operation on one surface; refusals (a bucket not empty, one that exists) are part of the game. */
async function randomOp(w: World, draw: () => number, n: number): Promise<string> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(draw() * list.length)]!;
  const buckets = w.api.account.buckets;
  const key = pick(KEYS);
  switch (Math.floor(draw() * 12)) {
    case 11: {
      // The queue's API consumer (an HTTP pull one): added when it has none, removed when it has one.
      const [q] = (await w.cf.queues.list({ account_id: w.account_id })).result;
      const queue_id = q!.queue_id!;
      const [c] = (await w.cf.queues.consumers.list(queue_id, { account_id: w.account_id })).result;
      if (c) {
        await w.cf.queues.consumers.delete(c.consumer_id!, { account_id: w.account_id, queue_id });
        return 'consumer remove';
      }
      await w.cf.queues.consumers.create(queue_id, {
        account_id: w.account_id,
        type: 'http_pull',
        settings: { batch_size: 1 + Math.floor(draw() * 10) },
      });
      return 'consumer add';
    }
    case 9: {
      const bucket = pick(buckets);
      const prefix = pick(['', 'dir/', 'a']);
      try {
        api(w).addEventNotification(bucket, {
          queue: 'jobs',
          eventTypes: [pick(['object-create', 'object-delete'] as const)],
          prefix,
        });
        return `rule on ${bucket} ${prefix}`;
      } catch {
        return `rule on ${bucket} ${prefix} (refused: overlaps)`;
      }
    }
    case 10: {
      const bucket = pick(buckets);
      const enabled = draw() < 0.5;
      await w.cf.r2.buckets.domains.managed.update(bucket, { account_id: w.account_id, enabled });
      return `r2.dev ${bucket} ${enabled}`;
    }
    case 0:
      await w.env.ALPHA.put(key, `binding ${n}`);
      return `binding put ${key}`;
    case 1:
      await w.env.ALPHA.delete(key);
      return `binding delete ${key}`;
    case 2: {
      const bucket = pick(buckets);
      await w.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: `s3 ${n}` }));
      return `s3 put ${bucket}/${key}`;
    }
    case 3: {
      const bucket = pick(buckets);
      await w.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      return `s3 delete ${bucket}/${key}`;
    }
    case 4: {
      const name = pick(NAMES);
      await w.cf.dns.records.create({
        zone_id: w.zone_id,
        type: 'TXT',
        name: `${name}.example.com`,
        content: `"v${n}"`,
        ttl: 60,
      });
      return `dns create ${name}`;
    }
    case 5: {
      const records = (await w.cf.dns.records.list({ zone_id: w.zone_id, type: 'TXT' })).result;
      if (records.length === 0) return 'dns delete (none)';
      const r = pick(records);
      await w.cf.dns.records.delete(r.id, { zone_id: w.zone_id });
      return `dns delete ${r.name}`;
    }
    case 6:
      await w.env.JOBS.send(`job ${n}`);
      return 'queue send';
    case 7: {
      const [q] = (await w.cf.queues.list({ account_id: w.account_id })).result;
      const delay = Math.floor(draw() * 100);
      await w.cf.queues.edit(q!.queue_id!, { account_id: w.account_id, settings: { delivery_delay: delay } });
      return `queue settings ${delay}`;
    }
    default: {
      const name = pick(BUCKETS);
      if (name === 'alpha') return 'control plane (alpha stays)';
      if (!buckets.includes(name)) {
        await w.cf.r2.buckets.create({ account_id: w.account_id, name });
        return `bucket create ${name}`;
      }
      await w.cf.r2.buckets.delete(name, { account_id: w.account_id }).catch(() => undefined); // refused when not empty
      return `bucket delete ${name}`;
    }
  }
}

/** What every surface shows; the surfaces that see one thing twice must agree. */
async function observe(w: World) {
  const listed = (await w.cf.r2.buckets.list({ account_id: w.account_id })).buckets!.map((b) => b.name!);
  const objects: Record<string, string[]> = {};
  const settings: Record<string, unknown> = {};
  for (const name of listed) {
    const viaS3 = ((await w.s3.send(new ListObjectsV2Command({ Bucket: name }))).Contents ?? []).map(
      (o) => `${o.Key} ${o.ETag}`,
    );
    const viaBinding = (await w.api.account.bucket(name)!.list()).objects.map((o) => `${o.key} "${o.etag}"`);
    expect(viaBinding).toEqual(viaS3);
    objects[name] = viaS3;
    settings[name] = {
      r2dev: (await w.cf.r2.buckets.domains.managed.list(name, { account_id: w.account_id })).enabled,
      rules: await (
        await w.api.fetch(
          `https://api.cloudflare.com/client/v4/accounts/${w.account_id}/event_notifications/r2/${name}/configuration`,
          { headers: AUTH },
        )
      ).json(),
    };
  }
  expect((await w.env.ALPHA.list()).objects.map((o) => `${o.key} "${o.etag}"`)).toEqual(objects.alpha);
  const records = (await w.cf.dns.records.list({ zone_id: w.zone_id })).result
    .map((r) => `${r.type} ${r.name} ${'content' in r ? r.content : ''}`)
    .sort();
  const queues = [];
  for (const q of (await w.cf.queues.list({ account_id: w.account_id })).result) {
    const consumers = (await w.cf.queues.consumers.list(q.queue_id!, { account_id: w.account_id })).result;
    queues.push({ name: q.queue_name, id: q.queue_id, settings: q.settings, consumers });
  }
  const pending = w.jobs.pending.map((m) => [m.id, m.body]);
  const metrics = await w.jobs.metrics();
  return { listed, objects, settings, records, queues, pending, backlog: metrics.backlogCount };
}

describe('snapshot and restore of an account: every surface sees the snapshot (property)', () => {
  it.each(SEEDS)('seed %i', { timeout: 60_000 }, async (seed) => {
    const w = world();
    const draw = seeded(seed);
    const done: string[] = [];
    for (let i = 0; i < OPS; i++) done.push(await randomOp(w, draw, i));
    // The queue's API record exists before the snapshot, as a rule or wrangler would have made it.
    await w.cf.queues.list({ account_id: w.account_id });
    const before = await observe(w);
    const snap = w.api.snapshot();
    for (let i = OPS; i < 2 * OPS; i++) done.push(await randomOp(w, draw, i));
    w.api.restore(snap);
    const after = await observe(w);
    expect(after, `operations: ${done.join('; ')}`).toEqual(before);
  });
});

describe('credentials are configuration the snapshot holds', () => {
  it('a credential added after the snapshot is gone after restore, and the open table is back', async () => {
    const api = new CloudflareApi({ zones: [{ name: 'example.com' }] });
    const zones = (token: string) =>
      api
        .fetch('https://api.cloudflare.com/client/v4/zones', { headers: { authorization: `Bearer ${token}` } })
        .then((r) => r.status);
    const snap = api.snapshot();
    api.addCredential({ token: 'k'.repeat(40) });
    expect(await zones('t'.repeat(40))).toBe(403); // the table is now the only way in
    expect(await zones('k'.repeat(40))).toBe(200);
    api.restore(snap);
    expect(await zones('t'.repeat(40))).toBe(200);
  });
});
