/**
 * R2's notification messages as a queue holds them (lib/bucket/notifications.ts `messageJson`,
 * lib/queue/content.ts `deferredJson`): the JSON is made when first read, and what the queue counts
 * and delivers is what an eager `JSON.stringify` of the body would have given.
 */
import { describe, expect, it } from 'vitest';
import { Account, Bucket, ManualClock } from 'edge-doubles';
import { accountState } from '../../lib/account/state.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { addRules, messageBody, messageBytes, messageJson, type ObjectEvent } from '../../lib/bucket/notifications.js';
import { utf8Length } from '../../lib/bytes.js';
import { createAccountQueue } from '../../lib/queue/account-queues.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const ETAG = '5d41402abc4b2a76b9719d911017c592';

describe('the size of a message, counted without making it', () => {
  const events: [string, ObjectEvent][] = [
    [
      'a put',
      { action: 'PutObject', key: 'photos/cat.png', object: { size: 123456, etag: ETAG }, time: Date.UTC(2030, 0, 1) },
    ],
    [
      'an etag not hashed yet',
      { action: 'PutObject', key: 'k', object: { size: 5, etag: ETAG, etagKnown: false }, time: 0 },
    ],
    [
      'a multipart etag',
      { action: 'CompleteMultipartUpload', key: 'big', object: { size: 10 << 20, etag: `${ETAG}-12` }, time: 1 },
    ],
    ['a delete', { action: 'DeleteObject', key: 'gone', time: Date.UTC(2026, 10, 26, 12, 30, 1, 5) }],
    ['a lifecycle deletion', { action: 'LifecycleDeletion', key: 'old/x', time: Date.UTC(2026, 0, 1) }],
    [
      'a copy',
      {
        action: 'CopyObject',
        key: 'to',
        object: { size: 0, etag: ETAG },
        time: 2,
        copySource: { bucket: 'src', object: 'from "quoted"\\' },
      },
    ],
    [
      'a key JSON escapes',
      { action: 'PutObject', key: 'tab\there "q" \\ \u0001 \u2028', object: { size: 1, etag: ETAG }, time: 3 },
    ],
    [
      'a key of many bytes',
      { action: 'PutObject', key: 'ñ/日本/😀/\ud800lone', object: { size: 1, etag: ETAG }, time: 4 },
    ],
    ['a date past year 9999', { action: 'DeleteObject', key: 'k', time: Date.UTC(10000, 0, 1) }],
    ['a date before year 0', { action: 'DeleteObject', key: 'k', time: Date.UTC(-1, 0, 1) }],
  ];
  it.each(events)('%s: the UTF-8 length of the body as JSON', (_, event) => {
    expect(messageBytes(ACCOUNT, 'my-bucket', event)).toBe(
      utf8Length(JSON.stringify(messageBody(ACCOUNT, 'my-bucket', event))),
    );
  });

  it("the text is the body as JSON; a small object's etag is read only when the text is made, a large one's at once", () => {
    let reads = 0;
    const object = (size: number) => ({
      size,
      etagKnown: false,
      get etag() {
        reads++;
        return ETAG;
      },
    });
    const small = messageJson(ACCOUNT, 'b', { action: 'PutObject', key: 'k', object: object(1024), time: 0 });
    expect(reads).toBe(0);
    expect(JSON.parse(small.text())).toEqual({
      account: ACCOUNT,
      action: 'PutObject',
      bucket: 'b',
      object: { key: 'k', size: 1024, eTag: ETAG },
      eventTime: '1970-01-01T00:00:00.000Z',
    });
    expect(reads).toBe(1);
    messageJson(ACCOUNT, 'b', { action: 'PutObject', key: 'k', object: object(1 << 20), time: 0 });
    expect(reads).toBe(2);
  });
});

describe('a queue holding a notification', () => {
  it('counts the bytes eager JSON would have, and delivers the same body however often it is read', async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const account = new Account({ clock });
    const photos = account.addBucket('photos', new Bucket({ clock }));
    const state = accountState(account);
    const { queue, id } = createAccountQueue(state, 'events', {});
    const layer = bucketLayer(photos)!;
    const added = addRules(layer.config.notifications, id, [{ actions: ['PutObject'] }], () => 'r1', 0);
    if (!('ok' in added)) throw new Error('refused');
    layer.config.notifications = added.ok;
    // Delivery is the account's own (lib/account/events.ts), made with it.
    const put = await photos.put('ключ/"x".txt', 'hello');
    const body = {
      account: account.id,
      action: 'PutObject',
      bucket: 'photos',
      object: { key: 'ключ/"x".txt', size: 5, eTag: put!.etag },
      eventTime: '2030-01-01T00:00:00.000Z',
    };
    const { metadata } = await queue.send('probe', { contentType: 'text' }); // the backlog before this send
    expect(metadata.metrics.backlogBytes).toBe(utf8Length(JSON.stringify(body)));
    const seen: unknown[] = [];
    queue.consume((b) => void seen.push(...b.messages.map((m) => m.body)), { maxBatchSize: 10, maxBatchTimeout: 0 });
    expect(queue.pending.map((m) => m.body)).toEqual([body, 'probe']);
    await queue.drain();
    expect(seen).toEqual([body, 'probe']);
  });
});
