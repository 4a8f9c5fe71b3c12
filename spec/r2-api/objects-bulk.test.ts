/**
 * R2's object collection over the API (lib/r2-api/objects.ts, jobs.ts; cloudflare/api-schemas
 * 2026-08-14 `r2-list-objects`, `r2-delete-objects`, `r2-list-bucket-jobs`, `r2-get-bucket-job`):
 * the listing, the delete of many keys, the prefix and Empty Bucket jobs, and the account-level
 * metrics (metrics.ts). Deletions go through the bucket layer: they notify, locks keep objects, the
 * call log shows them and fault rules catch them.
 */
import Cloudflare from 'cloudflare';
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { IDBFactory } from 'fake-indexeddb';
import { Bucket, IndexedDbStorage } from '../../lib/bucket.js';
import { ManualClock } from '../../lib/clock.js';
import { JOB_BATCH, JOB_PACE_MS, MAX_ACTIVE_JOBS } from '../../lib/bucket/jobs.js';
import type { Queue } from '../../lib/queue/queue.js';
import { accountState } from '../../lib/account/state.js';
import { QUEUES } from '../../lib/queue/backend.js';

const BASE = 'https://api.cloudflare.com/client/v4';

let clock: ManualClock;
let api: CloudflareApi;
let client: Cloudflare;
let bucket: Bucket;
let account_id: string;

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2030, 0, 1));
  api = new CloudflareApi({ clock });
  bucket = api.account.addBucket('photos', new Bucket({ clock, log: true }));
  account_id = api.account.id;
  client = new Cloudflare({
    apiToken: 'any-token',
    apiKey: null,
    apiEmail: null,
    baseURL: BASE,
    fetch: api.fetch,
    maxRetries: 0,
  });
});

/** A request to the bucket's object collection (or a path under the bucket), and its JSON. */
async function call(method: string, path: string, body?: unknown) {
  const res = await api.fetch(
    new Request(`${BASE}/accounts/${account_id}/r2/buckets/photos/${path}`, {
      method,
      headers: { authorization: 'Bearer any-token', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    }),
  );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Lets a job's next batch run: the clock moves one pace, then the batch's promise turns settle. */
async function nextBatch() {
  clock.advance(JOB_PACE_MS);
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** A queue on the account, for notification rules, and its messages. */
async function queueFor(name: string): Promise<Queue> {
  const res = await api.fetch(
    new Request(`${BASE}/accounts/${account_id}/queues`, {
      method: 'POST',
      headers: { authorization: 'Bearer any-token', 'content-type': 'application/json' },
      body: JSON.stringify({ queue_name: name }),
    }),
  );
  expect(res.status).toBe(200);
  return accountState(api.account).backend(QUEUES).get(name)!;
}

describe('GET …/objects: the listing', () => {
  it('answers the objects with their metadata, as the schema shapes them', async () => {
    const put = await bucket.put('docs/a.json', '{"a":1}', {
      httpMetadata: { contentType: 'application/json', cacheControl: 'no-store' },
      customMetadata: { owner: 'ann' },
    });
    await bucket.put('docs/b.txt', 'bb', { storageClass: 'InfrequentAccess' });
    const page = await client.r2.buckets.objects.list('photos', { account_id });
    expect(page.result).toEqual([
      {
        key: 'docs/a.json',
        size: 7,
        etag: put!.etag,
        last_modified: '2030-01-01T00:00:00.000Z',
        http_metadata: { contentType: 'application/json', cacheControl: 'no-store' },
        custom_metadata: { owner: 'ann' },
        ssec: false,
        storage_class: 'Standard',
      },
      expect.objectContaining({ key: 'docs/b.txt', size: 2, storage_class: 'InfrequentAccess', custom_metadata: {} }),
    ]);
  });

  it('pages with per_page and the cursor, and groups by delimiter as the binding does', async () => {
    for (const k of ['a/1', 'a/2', 'b/1', 'c', 'd', 'e']) await bucket.put(k, k);
    const first = await call('GET', 'objects?per_page=2&delimiter=/');
    expect(first.body.result).toEqual([]);
    expect(first.body.result_info).toMatchObject({ per_page: 2, is_truncated: true, delimited: ['a/', 'b/'] });
    const seen: string[] = [];
    for await (const o of client.r2.buckets.objects.list('photos', { account_id, per_page: 2 })) seen.push(o.key!);
    expect(seen).toEqual(['a/1', 'a/2', 'b/1', 'c', 'd', 'e']);
    const binding = await bucket.list({ prefix: 'a/', startAfter: 'a/1' });
    const listed = await call('GET', 'objects?prefix=a/&start_after=a/1');
    expect(listed.body.result.map((o: { key: string }) => o.key)).toEqual(binding.objects.map((o) => o.key));
    expect(listed.body.result_info).toEqual({ per_page: 20, is_truncated: false, delimited: [] });
  });

  it('refuses per_page outside 1–1000, and a bucket it does not have', async () => {
    for (const n of ['0', '1001', 'ten']) {
      const r = await call('GET', `objects?per_page=${n}`);
      expect(r.status, n).toBe(400);
      expect(r.body.errors[0].code, n).toBe(1004);
    }
    const missing = await api.fetch(
      new Request(`${BASE}/accounts/${account_id}/r2/buckets/nope/objects`, {
        headers: { authorization: 'Bearer any-token' },
      }),
    );
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { errors: { code: number }[] }).errors[0]!.code).toBe(10006);
  });

  it('is a list call of the bucket layer: logged with surface api', async () => {
    await call('GET', 'objects?prefix=x/');
    expect(bucket.log.filter({ op: 'list' })).toMatchObject([
      { surface: 'api', key: undefined, options: { operation: 'listObjects', prefix: 'x/' } },
    ]);
  });
});

describe('DELETE …/objects with a list of keys', () => {
  it('deletes each key, answering the deleted keys; the binding no longer has them', async () => {
    for (const k of ['a', 'b', 'c']) await bucket.put(k, k);
    const r = await call('DELETE', 'objects', ['a', 'c', 'never-there']);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      errors: [],
      result: [{ key: 'a' }, { key: 'c' }, { key: 'never-there' }],
    });
    expect((await bucket.list()).objects.map((o) => o.key)).toEqual(['b']);
  });

  it('goes through the bucket layer: one delete call with the keys, and a notification each', async () => {
    const queue = await queueFor('events');
    api.addEventNotification('photos', { queue: 'events', eventTypes: ['object-delete'] });
    for (const k of ['x', 'y']) await bucket.put(k, k);
    bucket.log.clear();
    await call('DELETE', 'objects', ['x', 'y']);
    expect(bucket.log.filter({ op: 'delete' })).toMatchObject([
      { surface: 'api', key: ['x', 'y'], options: { operation: 'deleteObjects' }, status: 'ok' },
    ]);
    const bodies = queue.pending.map((m) => m.body as { action: string; object: { key: string } });
    expect(bodies.map((b) => [b.action, b.object.key])).toEqual([
      ['DeleteObject', 'x'],
      ['DeleteObject', 'y'],
    ]);
  });

  it('keeps a locked object and reports it among the errors; the others go', async () => {
    await call('PUT', 'lock', {
      rules: [{ id: 'keep', enabled: true, prefix: 'kept/', condition: { type: 'Indefinite' } }],
    });
    await bucket.put('kept/1', '1');
    await bucket.put('free', 'f');
    const r = await call('DELETE', 'objects', ['kept/1', 'free']);
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual([{ key: 'free' }]);
    expect(r.body.errors).toEqual([{ code: 10069, message: expect.stringMatching(/^kept\/1: /) }]);
    expect(await bucket.head('kept/1')).not.toBeNull();
    expect(await bucket.head('free')).toBeNull();
  });

  it('refuses a body that is not a JSON array of keys, deleting nothing', async () => {
    await bucket.put('a', 'a');
    for (const body of ['{"keys":["a"]}', '[1]', 'not json', '']) {
      const r = await call('DELETE', 'objects', body);
      expect(r.status, body).toBe(400);
      expect(r.body.errors[0].code, body).toBe(10040);
    }
    expect(await bucket.head('a')).not.toBeNull();
  });
});

describe('DELETE …/objects?prefix=: prefix and Empty Bucket jobs', () => {
  it('deletes the keys under the prefix and answers the job COMPLETED; GET jobs shows it', async () => {
    for (const k of ['logs/1', 'logs/2', 'logsx', 'keep']) await bucket.put(k, k);
    const r = await call('DELETE', 'objects?prefix=logs/');
    expect(r.status).toBe(200);
    const job = r.body.result;
    expect(job).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      jobType: 'prefixDelete',
      prefixDelete: { prefix: 'logs/', deletedObjects: 2, isBucketClear: false },
      startTime: '2030-01-01T00:00:00.000Z',
      endTime: '2030-01-01T00:00:00.000Z',
      status: 'COMPLETED',
    });
    expect((await bucket.list()).objects.map((o) => o.key)).toEqual(['keep', 'logsx']);
    expect((await call('GET', `jobs/${job.id}`)).body.result).toEqual(job);
    expect((await call('GET', 'jobs')).body.result).toEqual({ jobs: [job] });
    expect(bucket.log.filter({ op: 'delete' })).toMatchObject([
      { surface: 'api', key: 'logs/', options: { operation: 'prefixDelete', job: job.id } },
    ]);
  });

  it('?prefix= empties the bucket (isBucketClear), leaving multipart uploads alone', async () => {
    await bucket.put('a', 'a');
    await bucket.put('b/c', 'c');
    const upload = await bucket.createMultipartUpload('big');
    const r = await call('DELETE', 'objects?prefix=');
    expect(r.body.result.prefixDelete).toEqual({ prefix: '', deletedObjects: 2, isBucketClear: true });
    expect((await bucket.list()).objects).toEqual([]);
    await upload.uploadPart(1, 'still here');
  });

  it('refuses a non-empty prefix that does not end in /', async () => {
    await bucket.put('logs/1', '1');
    const r = await call('DELETE', 'objects?prefix=logs');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].code).toBe(10040);
    expect(await bucket.head('logs/1')).not.toBeNull();
  });

  it('answers 409 10034 while the bucket has event notification rules, deleting nothing', async () => {
    await queueFor('events');
    api.addEventNotification('photos', { queue: 'events', eventTypes: ['object-create'] });
    await bucket.put('a', 'a');
    for (const prefix of ['', 'dir/']) {
      const r = await call('DELETE', `objects?prefix=${prefix}`);
      expect(r.status, prefix).toBe(409);
      expect(r.body.errors, prefix).toEqual([
        {
          code: 10034,
          message: `Remove all event notification rules from bucket (photos) before emptying it (account ${account_id}).`,
        },
      ]);
    }
    expect(await bucket.head('a')).not.toBeNull();
    expect((await call('GET', 'jobs')).body.result.jobs).toEqual([]);
  });

  it('skips an object a lock rule keeps and still completes', async () => {
    await call('PUT', 'lock', {
      rules: [{ id: 'keep', enabled: true, prefix: 'd/kept', condition: { type: 'Indefinite' } }],
    });
    await bucket.put('d/kept', 'k');
    await bucket.put('d/free', 'f');
    const r = await call('DELETE', 'objects?prefix=d/');
    expect(r.body.result).toMatchObject({ status: 'COMPLETED', prefixDelete: { deletedObjects: 1 } });
    expect(await bucket.head('d/kept')).not.toBeNull();
  });

  it(`runs a job of more than ${JOB_BATCH} objects in the background, on the account's clock, sparing later uploads`, async () => {
    const keys = Array.from({ length: JOB_BATCH + 500 }, (_, i) => `big/${String(i).padStart(5, '0')}`);
    for (const k of keys) await bucket.put(k, 'x');
    const r = await call('DELETE', 'objects?prefix=big/');
    const id = r.body.result.id;
    expect(r.body.result).toMatchObject({ status: 'RUNNING', prefixDelete: { deletedObjects: JOB_BATCH } });
    expect(r.body.result.endTime).toBeUndefined();
    clock.advance(1);
    await bucket.put('big/99999', 'after the job started');
    await nextBatch();
    const done = (await call('GET', `jobs/${id}`)).body.result;
    expect(done).toMatchObject({ status: 'COMPLETED', prefixDelete: { deletedObjects: keys.length } });
    expect(done.endTime).toBe(new Date(Date.UTC(2030, 0, 1) + 1 + JOB_PACE_MS).toISOString());
    expect((await bucket.list({ prefix: 'big/' })).objects.map((o) => o.key)).toEqual(['big/99999']);
  });

  it(`answers 429 10058 past ${MAX_ACTIVE_JOBS} active jobs on the bucket`, async () => {
    // Locked objects are walked but kept: each job's first batch sees more than one batch, so it keeps running.
    await call('PUT', 'lock', {
      rules: [{ id: 'keep', enabled: true, prefix: 'held/', condition: { type: 'Indefinite' } }],
    });
    for (let i = 0; i <= JOB_BATCH; i++) await bucket.put(`held/${String(i).padStart(5, '0')}`, 'x');
    for (let i = 0; i < MAX_ACTIVE_JOBS; i++)
      expect((await call('DELETE', 'objects?prefix=held/')).body.result.status).toBe('RUNNING');
    const refused = await call('DELETE', 'objects?prefix=');
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([
      {
        code: 10058,
        message: 'Too many concurrent prefix delete jobs for this bucket. Please wait for existing jobs to complete.',
      },
    ]);
    await nextBatch();
    const listed = (await call('GET', 'jobs?jobType=prefixDelete&status=COMPLETED')).body.result.jobs;
    expect(listed).toHaveLength(MAX_ACTIVE_JOBS);
    expect((await call('DELETE', 'objects?prefix=')).status).toBe(200);
  });

  it('a batch a fault rule fails marks the job FAILED', async () => {
    for (let i = 0; i <= JOB_BATCH; i++) await bucket.put(`f/${String(i).padStart(5, '0')}`, 'x');
    const id = (await call('DELETE', 'objects?prefix=f/')).body.result.id;
    bucket.faults.add({ op: 'delete', error: 'internal' });
    await nextBatch();
    expect((await call('GET', `jobs/${id}`)).body.result).toMatchObject({
      status: 'FAILED',
      prefixDelete: { deletedObjects: JOB_BATCH },
    });
    expect(await bucket.head(`f/${String(JOB_BATCH).padStart(5, '0')}`)).not.toBeNull();
  });

  it("a snapshot holds the bucket's jobs: a restore forgets the ones made since", async () => {
    await bucket.put('a/1', '1');
    const snap = api.snapshot();
    await call('DELETE', 'objects?prefix=a/');
    api.restore(snap);
    expect((await call('GET', 'jobs')).body.result.jobs).toEqual([]);
    expect(await bucket.head('a/1')).not.toBeNull();
  });

  it('lists jobs oldest first, by maxKeys with a continuation token, and refuses what the schema does not take', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call('DELETE', `objects?prefix=p${i}/`)).body.result.id);
    const first = (await call('GET', 'jobs?maxKeys=2')).body.result;
    expect(first.jobs.map((j: { id: string }) => j.id)).toEqual(ids.slice(0, 2));
    const rest = (await call('GET', `jobs?continuationToken=${encodeURIComponent(first.nextContinuationToken)}`)).body
      .result;
    expect(rest).toEqual({ jobs: [expect.objectContaining({ id: ids[2] })] });
    for (const q of [
      'jobType=copy',
      'status=RUNNING',
      'jobType=prefixDelete&status=DONE',
      'maxKeys=1001',
      'continuationToken=x',
    ]) {
      const r = await call('GET', `jobs?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].code, q).toBe(1004);
    }
    const missing = await call('GET', 'jobs/0d6fbc2e-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });
});

describe('a job on a bucket in IndexedDB', () => {
  it("runs its batches as the storage's transactions; a second Bucket on the database reads the job", async () => {
    const indexedDB = new IDBFactory();
    const stored = new Bucket({ clock, storage: new IndexedDbStorage({ name: 'jobs', indexedDB }) });
    api.account.addBucket('stored', stored);
    for (let i = 0; i <= JOB_BATCH; i++) await stored.put(`k/${String(i).padStart(5, '0')}`, 'x');
    const at = `${BASE}/accounts/${account_id}/r2/buckets/stored`;
    const req = (method: string, path: string) =>
      api.fetch(new Request(`${at}/${path}`, { method, headers: { authorization: 'Bearer any-token' } }));
    const made = (
      (await (await req('DELETE', 'objects?prefix=k/')).json()) as { result: { id: string; status: string } }
    ).result;
    expect(made.status).toBe('RUNNING');
    let status = made.status;
    for (let i = 0; i < 50 && status === 'RUNNING'; i++) {
      clock.advance(JOB_PACE_MS);
      await new Promise((done) => setTimeout(done, 10));
      status = ((await (await req('GET', `jobs/${made.id}`)).json()) as { result: { status: string } }).result.status;
    }
    expect(status).toBe('COMPLETED');
    expect((await stored.list()).objects).toEqual([]);
    const second = new Bucket({ clock, storage: new IndexedDbStorage({ name: 'jobs', indexedDB }) });
    const other = new CloudflareApi({ clock });
    other.account.addBucket('stored', second);
    const seen = await other.fetch(
      new Request(`${BASE}/accounts/${other.account.id}/r2/buckets/stored/jobs`, {
        headers: { authorization: 'Bearer any-token' },
      }),
    );
    expect(((await seen.json()) as { result: { jobs: unknown[] } }).result.jobs).toEqual([
      expect.objectContaining({
        id: made.id,
        status: 'COMPLETED',
        prefixDelete: expect.objectContaining({ deletedObjects: JOB_BATCH + 1 }),
      }),
    ]);
  });
});

describe('GET /accounts/{id}/r2/metrics', () => {
  it("sums every bucket's objects by class, and uploads not yet completed as uploaded", async () => {
    await bucket.put('a', '12345', { customMetadata: { k: 'v' } });
    await bucket.put('b', '123', { storageClass: 'InfrequentAccess' });
    const eu = api.addBucket('vault', { jurisdiction: 'eu' });
    await eu.put('c', '1234567');
    const upload = await bucket.createMultipartUpload('part/ial');
    await upload.uploadPart(1, 'abcdef');
    const metrics = await client.r2.buckets.metrics.list({ account_id });
    expect(metrics).toEqual({
      standard: {
        published: { objects: 2, payloadSize: 12, metadataSize: 1 + 2 + 1 },
        uploaded: { objects: 1, payloadSize: 6, metadataSize: 'part/ial'.length },
      },
      infrequentAccess: {
        published: { objects: 1, payloadSize: 3, metadataSize: 1 },
        uploaded: { objects: 0, payloadSize: 0, metadataSize: 0 },
      },
    });
  });
});
