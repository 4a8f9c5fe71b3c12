/**
 * R2 event notifications: the rules (lib/bucket/notifications.ts), the messages every surface's
 * writes send through the bucket layer, and the API routes that set the rules
 * (lib/r2-api/notifications.ts). Queues here are recorders registered on the account; delivery to a
 * consumer is the Queues double's (spec/queue/).
 */
import { describe, expect, it } from 'vitest';
import { CopyObjectCommand, DeleteObjectCommand, DeleteObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Account, Bucket, CloudflareApi, ManualClock, S3Api } from 'edge-doubles';
import { accountState } from '../../lib/account/state.js';
import { R2 } from '../../lib/bucket/backend.js';
import {
  addRules,
  OBJECT_CHANGED,
  overlaps,
  queuesFor,
  removeRules,
  type NotificationRule,
  type ObjectChanged,
} from '../../lib/bucket/notifications.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { createAccountQueue } from '../../lib/queue/account-queues.js';
import { QUEUES } from '../../lib/queue/backend.js';
import { CREDENTIALS, sdk } from '../s3/support.js';

const rule = (actions: NotificationRule['actions'], prefix = '', suffix = '') => ({ actions, prefix, suffix });
let ids = 0;
const newId = () => `rule-${++ids}`;

describe('rules', () => {
  it('overlap needs a shared action and a key both could match', () => {
    expect(overlaps(rule(['PutObject']), rule(['PutObject'], 'images/'))).toBe(true);
    expect(overlaps(rule(['PutObject'], 'a/'), rule(['CopyObject'], 'a/'))).toBe(false);
    expect(overlaps(rule(['PutObject'], 'a/'), rule(['PutObject'], 'b/'))).toBe(false);
    expect(overlaps(rule(['PutObject'], '', '.png'), rule(['PutObject'], '', '.jpg'))).toBe(false);
    expect(overlaps(rule(['PutObject'], 'a/', '.png'), rule(['PutObject'], 'a/b/', 'x.png'))).toBe(true);
    // Prefix of one and suffix of the other: some key matches both (a/…x), so they overlap.
    expect(overlaps(rule(['DeleteObject'], 'a/'), rule(['DeleteObject'], '', 'x'))).toBe(true);
  });

  it('rules are added per queue; an overlap on the same queue is refused, on another queue allowed', () => {
    const one = addRules([], 'q1', [{ actions: ['PutObject'] }], newId, 0);
    if (!('ok' in one)) throw new Error('refused');
    const again = addRules(one.ok, 'q1', [{ actions: ['PutObject', 'DeleteObject'], prefix: 'images/' }], newId, 0);
    expect(again).toMatchObject({ problem: { kind: 'overlap' } });
    const other = addRules(one.ok, 'q2', [{ actions: ['PutObject'] }], newId, 0);
    expect('ok' in other && other.ok.map((q) => q.queueId)).toEqual(['q1', 'q2']);
    // The first set is untouched by the refused change (values are replaced, never changed).
    expect(one.ok).toHaveLength(1);
  });

  it('refuses unknown actions, an empty list, non-string filters, and more than 100 rules', () => {
    expect(addRules([], 'q', [{ actions: [] }], newId, 0)).toMatchObject({ problem: { kind: 'invalid' } });
    expect(addRules([], 'q', [{ actions: ['AbortMultipartUpload' as never] }], newId, 0)).toMatchObject({
      problem: { kind: 'invalid' },
    });
    expect(addRules([], 'q', [{ actions: ['PutObject'], prefix: 3 as never }], newId, 0)).toMatchObject({
      problem: { kind: 'invalid' },
    });
    const many = Array.from({ length: 101 }, (_, i) => ({
      actions: ['PutObject' as const],
      prefix: `p${String(i).padStart(3, '0')}/`,
    }));
    expect(addRules([], 'q', many.slice(0, 100), newId, 0)).toHaveProperty('ok');
    expect(addRules([], 'q', many, newId, 0)).toMatchObject({ problem: { kind: 'too-many' } });
  });

  it('matching is plain prefix and suffix; removal by rule id or per queue', () => {
    const r = addRules([], 'q1', [{ actions: ['PutObject'], prefix: 'in/', suffix: '.png' }], newId, 0);
    if (!('ok' in r)) throw new Error('refused');
    expect(queuesFor(r.ok, 'PutObject', 'in/a.png')).toEqual(['q1']);
    expect(queuesFor(r.ok, 'PutObject', 'in/a.jpg')).toEqual([]);
    expect(queuesFor(r.ok, 'PutObject', 'out/a.png')).toEqual([]);
    expect(queuesFor(r.ok, 'DeleteObject', 'in/a.png')).toEqual([]);
    const id = r.ok[0]!.rules[0]!.ruleId;
    expect(removeRules(r.ok, 'q1', ['other'])).toHaveLength(1);
    expect(removeRules(r.ok, 'q1', [id])).toEqual([]);
    expect(removeRules(r.ok, 'q1')).toEqual([]);
  });
});

/** An account with queue `uploads` recording what R2 would put on it, and bucket `photos` notifying it. */
function setup(
  actions: NotificationRule['actions'] = ['PutObject', 'CopyObject', 'CompleteMultipartUpload', 'DeleteObject'],
  prefix = '',
  notifyMissingKeyDeletes?: boolean,
) {
  const clock = new ManualClock(Date.parse('2026-11-26T10:00:00.000Z'));
  const account = new Account({ clock, notifyMissingKeyDeletes });
  const photos = account.addBucket('photos', new Bucket({ clock }));
  account.addBucket('archive', new Bucket({ clock }));
  // No consumer: what R2 sent waits on the queue, in order (queue.pending).
  const queue = createAccountQueue(accountState(account), 'uploads', {});
  const sent = () => queue.queue.pending.map((m) => m.body);
  const reset = () => queue.queue.reset();
  const layer = bucketLayer(photos)!;
  const added = addRules(layer.config.notifications, queue.id, [{ actions, prefix }], newId, 0);
  if (!('ok' in added)) throw new Error('refused');
  layer.config.notifications = added.ok;
  return { account, photos, sent, reset, clock };
}

describe('messages from every surface', () => {
  it('binding put, delete (each key) and multipart complete send R2s body', async () => {
    const { account, photos, sent, reset, clock } = setup();
    const put = await photos.put('a.txt', 'hello');
    expect(sent()).toEqual([
      {
        account: account.id,
        action: 'PutObject',
        bucket: 'photos',
        object: { key: 'a.txt', size: 5, eTag: put!.etag },
        eventTime: '2026-11-26T10:00:00.000Z',
      },
    ]);
    clock.advance(1000);
    await photos.put('b.txt', 'x');
    reset();
    clock.advance(1000);
    await photos.delete(['a.txt', 'b.txt']);
    expect(sent()).toEqual(
      ['a.txt', 'b.txt'].map((key) => ({
        account: account.id,
        action: 'DeleteObject',
        bucket: 'photos',
        object: { key },
        eventTime: '2026-11-26T10:00:02.000Z',
      })),
    );
    reset();
    const upload = await photos.createMultipartUpload('big.bin');
    const part = await upload.uploadPart(1, 'only part');
    const done = await upload.complete([part]);
    expect(sent()).toEqual([
      {
        account: account.id,
        action: 'CompleteMultipartUpload',
        bucket: 'photos',
        object: { key: 'big.bin', size: 9, eTag: done.etag },
        eventTime: '2026-11-26T10:00:02.000Z',
      },
    ]);
  });

  it('a delete of a key that held nothing, a failed conditional put and an aborted upload send nothing', async () => {
    const { photos, sent, reset } = setup();
    await photos.delete('missing');
    expect(sent()).toEqual([]);
    await photos.put('k', 'v');
    reset();
    expect(await photos.put('k', 'w', { onlyIf: { etagMatches: 'nope' } })).toBeNull();
    const upload = await photos.createMultipartUpload('u');
    await upload.abort();
    expect(sent()).toEqual([]);
  });

  it('with notifyMissingKeyDeletes, a delete of a key that held nothing sends DeleteObject', async () => {
    const { photos, sent } = setup(undefined, undefined, true);
    await photos.delete('missing');
    expect(sent()).toMatchObject([{ action: 'DeleteObject', object: { key: 'missing' } }]);
  });

  it('only matching rules send, and only their actions', async () => {
    const { photos, sent } = setup(['PutObject'], 'in/');
    await photos.put('out/a', 'x');
    await photos.put('in/a', 'x');
    await photos.delete('in/a');
    expect(sent().map((m) => (m as { object: { key: string } }).object.key)).toEqual(['in/a']);
  });

  it('the S3 view: PutObject, CopyObject (with copySource), DeleteObject, DeleteObjects', async () => {
    const { account, photos, sent } = setup();
    await account.bucket('archive')!.put('old.txt', 'archived');
    const client = sdk(new S3Api({ account, credentials: [CREDENTIALS] }).fetch);
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'p.txt', Body: 'via s3' }));
    await client.send(new CopyObjectCommand({ Bucket: 'photos', Key: 'copy.txt', CopySource: 'archive/old.txt' }));
    await client.send(new DeleteObjectCommand({ Bucket: 'photos', Key: 'p.txt' }));
    await client.send(new DeleteObjectsCommand({ Bucket: 'photos', Delete: { Objects: [{ Key: 'copy.txt' }] } }));
    const copy = await photos.head('copy.txt');
    expect(copy).toBeNull();
    expect(sent().map((m) => (m as { action: string }).action)).toEqual([
      'PutObject',
      'CopyObject',
      'DeleteObject',
      'DeleteObject',
    ]);
    expect(sent()[1]).toMatchObject({
      object: { key: 'copy.txt', size: 8 },
      copySource: { bucket: 'archive', object: 'old.txt' },
    });
    expect(sent()[0]).not.toHaveProperty('copySource');
  });

  it('a lifecycle expiry sends LifecycleDeletion at the moment it fell due, and only to object-delete rules', async () => {
    const { account, photos, sent, clock } = setup(['LifecycleDeletion']);
    await photos.put('logs/a', 'x');
    bucketLayer(photos)!.config.lifecycle = [
      {
        id: 'expire',
        enabled: true,
        conditions: { prefix: 'logs/' },
        deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86_400 } },
      },
    ];
    clock.advance(86_400_000 + 5_000); // the bucket is next used a little after the object fell due
    expect(await photos.head('logs/a')).toBeNull();
    expect(sent()).toEqual([
      {
        account: account.id,
        action: 'LifecycleDeletion',
        bucket: 'photos',
        object: { key: 'logs/a' },
        eventTime: '2026-11-27T10:00:00.000Z',
      },
    ]);
  });

  it('a bucket deleted from the account, or whose name was reused, notifies nothing', async () => {
    const { account, photos, sent } = setup();
    // Gone from the account's names only (its settings, rules included, stay): the name is what stops it.
    const r2 = accountState(account).backend(R2);
    r2.hold(r2.held().filter(([name]) => name !== 'photos'));
    account.addBucket('photos', new Bucket());
    await photos.put('a', 'x');
    expect(sent()).toEqual([]);
  });
});

describe('between the bucket and the queues: the account event', () => {
  it("a change is told on the account's OBJECT_CHANGED with the bucket's name and rules, and reaches the queue", async () => {
    const { account, photos, sent } = setup(['PutObject']);
    const heard: ObjectChanged[] = [];
    const off = accountState(account).on(OBJECT_CHANGED, (e) => heard.push(e));
    await photos.put('a.txt', 'hello');
    expect(heard).toMatchObject([
      {
        bucket: 'photos',
        rules: bucketLayer(photos)!.config.notifications,
        event: { action: 'PutObject', key: 'a.txt' },
      },
    ]);
    expect(sent()).toHaveLength(1);
    off();
    await photos.put('b.txt', 'hello');
    expect(heard).toHaveLength(1);
    expect(sent()).toHaveLength(2); // the account's own listener stays
  });

  it('a rule in an account whose queues were never used makes no Queues backend', async () => {
    const account = new Account();
    const photos = account.addBucket('photos', new Bucket());
    const layer = bucketLayer(photos)!;
    const added = addRules(layer.config.notifications, 'f'.repeat(32), [{ actions: ['PutObject'] }], newId, 0);
    if (!('ok' in added)) throw new Error('refused');
    layer.config.notifications = added.ok;
    await photos.put('a.txt', 'hello');
    expect(accountState(account).made(QUEUES)).toBeUndefined();
  });
});

describe('the API routes', () => {
  const auth = { authorization: `Bearer ${'t'.repeat(40)}` };
  function api() {
    const cf = new CloudflareApi();
    const queue = createAccountQueue(accountState(cf.account), 'jobs', {});
    const sent = () => queue.queue.pending.map((m) => m.body);
    cf.account.addBucket('photos', new Bucket());
    const base = `https://api.cloudflare.com/client/v4/accounts/${cf.account.id}/event_notifications/r2/photos/configuration`;
    const call = async (method: string, path = '', body?: unknown) => {
      const r = await cf.fetch(base + path, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: r.status,
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
        body: (await r.json()) as { success: boolean; result: any; errors: { code: number; message: string }[] },
      };
    };
    return { cf, call, sent, queue };
  }

  it('PUT adds rules, GET shows them with ruleId and createdAt, DELETE removes them', async () => {
    const { call, cf, sent, queue } = api();
    const put = await call('PUT', `/queues/${queue.id}`, {
      rules: [{ prefix: 'in/', suffix: '', actions: ['PutObject', 'CopyObject'], description: 'thumbnails' }],
    });
    expect(put).toMatchObject({ status: 200, body: { success: true } });
    const got = await call('GET');
    expect(got.body.result).toMatchObject({
      bucketName: 'photos',
      queues: [
        {
          queueId: queue.id,
          queueName: 'jobs',
          rules: [{ prefix: 'in/', actions: ['PutObject', 'CopyObject'], description: 'thumbnails' }],
        },
      ],
    });
    const r = got.body.result.queues[0].rules[0];
    expect(r.ruleId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.createdAt).toMatch(/Z$/);
    await cf.account.bucket('photos')!.put('in/x', '1');
    expect(sent()).toHaveLength(1);
    const del = await call('DELETE', `/queues/${queue.id}`, { ruleIds: [r.ruleId] });
    expect(del.status).toBe(200);
    // No rule left: the published schema's 404 11015 "No Configuration Found".
    expect(await call('GET')).toMatchObject({
      status: 404,
      body: { success: false, errors: [{ code: 11015, message: 'workers.api.error.no_configs_found_for_bucket' }] },
    });
  });

  it('answers overlap, unknown bucket, unknown queue and malformed bodies as errors, leaving the rules as they were', async () => {
    const { call, cf, queue } = api();
    await call('PUT', `/queues/${queue.id}`, { rules: [{ actions: ['PutObject'] }] });
    const overlap = await call('PUT', `/queues/${queue.id}`, { rules: [{ prefix: 'a/', actions: ['PutObject'] }] });
    expect(overlap.status).toBe(400);
    expect(overlap.body.errors[0]!.message).toMatch(/conflicting/);
    const noBucket = await cf.fetch(
      `https://api.cloudflare.com/client/v4/accounts/${cf.account.id}/event_notifications/r2/nope/configuration`,
      { headers: auth },
    );
    expect(noBucket.status).toBe(404);
    expect(((await noBucket.json()) as { errors: { code: number }[] }).errors[0]!.code).toBe(10085);
    expect((await call('PUT', `/queues/${'c'.repeat(32)}`, { rules: [] })).body.errors[0]!.code).toBe(10104);
    const bad = await cf.fetch(
      `https://api.cloudflare.com/client/v4/accounts/${cf.account.id}/event_notifications/r2/photos/configuration/queues/${queue.id}`,
      {
        method: 'PUT',
        headers: auth,
        body: '{not json',
      },
    );
    expect(bad.status).toBe(400);
    expect((await call('GET')).body.result.queues[0].rules).toHaveLength(1);
  });
});
