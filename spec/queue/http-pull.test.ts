/**
 * The Queues HTTP pull consumer and push routes over `api serve` (issue 28 point 3, lib/queue/consumers.ts),
 * driven by a Python client (urllib, as a service outside Workers would be): messages pushed over HTTP
 * are pulled with leases, acked and retried; a retried message comes back with its attempts counted
 * and, after its retries, lands in the dead-letter queue, which a Worker's consumer reads; a lease
 * left past its visibility timeout on the double's clock is retried as an unacked message is.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock.js';
import { startApiServer } from '../../lib/node/account-server.js';
import { accountState } from '../../lib/account/state.js';
import { QUEUES } from '../../lib/queue/backend.js';
import { debianCommand } from '../helpers/debian-command.js';

const python = debianCommand('python3', 'python3');

/** A small client: every call is `python3 -c CLIENT <method> <url> <json>`, printing the JSON answer. */
const CLIENT = `
import json, sys, urllib.request, urllib.error
method, url, body = sys.argv[1], sys.argv[2], sys.argv[3]
req = urllib.request.Request(url, method=method, data=body.encode() if body else None,
    headers={'Authorization': 'Bearer python-client-token', 'Content-Type': 'application/json'})
try:
    with urllib.request.urlopen(req) as r:
        print(json.dumps({'status': r.status, 'body': json.load(r)}))
except urllib.error.HTTPError as e:
    print(json.dumps({'status': e.code, 'body': json.load(e)}))
`;

describe.skipIf(!python)('HTTP pull consumer from Python (needs python3)', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let base: string;
  const py = (method: string, path: string, body?: unknown) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    new Promise<{ status: number; body: any }>((done, fail) =>
      execFile(
        python!,
        ['-c', CLIENT, method, `${base}${path}`, body === undefined ? '' : JSON.stringify(body)],
        (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : done(JSON.parse(stdout))),
      ),
    );

  beforeAll(async () => {
    server = await startApiServer({ clock });
    base = `${server.baseURL}/accounts/${server.api.account.id}/queues`;
  });
  afterAll(() => server?.close());

  it('push, pull with leases, ack, retry (attempts counted), then dead-lettering to a Worker consumer', async () => {
    const made = await py('POST', '', { queue_name: 'jobs' });
    expect(made.status).toBe(200);
    const id = made.body.result.queue_id as string;
    await py('POST', '', { queue_name: 'jobs-dlq' });
    const consumer = await py('POST', `/${id}/consumers`, {
      type: 'http_pull',
      settings: { batch_size: 2, max_retries: 1, visibility_timeout_ms: 5000 },
      dead_letter_queue: 'jobs-dlq',
    });
    expect(consumer.status, JSON.stringify(consumer.body)).toBe(200);
    // Exclusive: a second consumer is refused.
    expect((await py('POST', `/${id}/consumers`, { type: 'worker', script_name: 'other' })).status).toBe(409);

    expect((await py('POST', `/${id}/messages`, { body: 'first', content_type: 'text' })).status).toBe(200);
    const pushed = await py('POST', `/${id}/messages/batch`, {
      messages: [{ body: { n: 2 }, content_type: 'json' }, { body: { n: 3 } }],
    });
    expect(pushed.status).toBe(200);

    const first = await py('POST', `/${id}/messages/pull`, {});
    expect(first.status).toBe(200);
    const got = first.body.result.messages as { body: string; attempts: number; lease_id: string }[];
    expect(got.map((m) => [m.body, m.attempts])).toEqual([
      ['first', 1],
      ['{"n":2}', 1],
    ]);
    const acked = await py('POST', `/${id}/messages/ack`, {
      acks: [{ lease_id: got[0]!.lease_id }],
      retries: [{ lease_id: got[1]!.lease_id }],
    });
    expect(acked.body.result).toMatchObject({ ackCount: 1, retryCount: 1 });

    // The rest of the held batch first, then the retried message with its second attempt.
    const second = await py('POST', `/${id}/messages/pull`, { batch_size: 10 });
    expect(second.body.result.messages.map((m: { body: string; attempts: number }) => [m.body, m.attempts])).toEqual([
      ['{"n":3}', 1],
    ]);
    await py('POST', `/${id}/messages/ack`, { acks: [{ lease_id: second.body.result.messages[0].lease_id }] });
    const third = await py('POST', `/${id}/messages/pull`, {});
    expect(third.body.result.messages.map((m: { body: string; attempts: number }) => [m.body, m.attempts])).toEqual([
      ['{"n":2}', 2],
    ]);

    // Left past its visibility timeout on the double's clock: retried, and with retries spent, dead-lettered.
    clock.advance(5000);
    const none = await py('POST', `/${id}/messages/pull`, {});
    expect(none.body.result.messages).toEqual([]);
    const dlq = accountState(server.api.account).backend(QUEUES).get('jobs-dlq')!;
    expect(dlq.pending.map((m) => [m.body, m.attempts])).toEqual([[{ n: 2 }, 1]]); // attempts afresh on the dead-letter queue
    const seen: unknown[] = [];
    dlq.consume((batch) => void seen.push(...batch.messages.map((m) => m.body)));
    await dlq.drain();
    expect(seen).toEqual([{ n: 2 }]);

    // A lease acked twice, or unknown, is a warning, not an error.
    const again = await py('POST', `/${id}/messages/ack`, { acks: [{ lease_id: got[0]!.lease_id }] });
    expect(again.body.result.ackCount).toBe(0);
    expect(Object.keys(again.body.result.warnings)).toEqual([got[0]!.lease_id]);
  }, 60_000);

  it("a queue a Worker consumes (attached in code) takes no API consumer: production's consumer is exclusive", async () => {
    const id = (await py('POST', '', { queue_name: 'worked' })).body.result.queue_id as string;
    accountState(server.api.account)
      .backend(QUEUES)
      .get('worked')!
      .consume(() => {});
    expect((await py('POST', `/${id}/consumers`, { type: 'http_pull' })).status).toBe(409);
  }, 30_000);

  it('purge drops every message; the consumer list shows the pull consumer until it is removed', async () => {
    const id = (await py('POST', '', { queue_name: 'purged' })).body.result.queue_id as string;
    const c = (await py('POST', `/${id}/consumers`, { type: 'http_pull' })).body.result;
    await py('POST', `/${id}/messages/batch`, {
      messages: [
        { body: 'a', content_type: 'text' },
        { body: 'b', content_type: 'text' },
      ],
    });
    expect((await py('POST', `/${id}/purge`, { delete_messages_permanently: true })).status).toBe(200);
    expect((await py('POST', `/${id}/messages/pull`, {})).body.result.messages).toEqual([]);
    expect(
      (await py('GET', `/${id}/consumers`)).body.result.map((x: { consumer_id: string; type: string }) => [
        x.consumer_id,
        x.type,
      ]),
    ).toEqual([[c.consumer_id, 'http_pull']]);
    expect((await py('DELETE', `/${id}/consumers/${c.consumer_id}`)).status).toBe(200);
    expect((await py('GET', `/${id}/consumers`)).body.result).toEqual([]);
    expect((await py('POST', `/${id}/messages/pull`, {})).status).toBe(400);
  }, 60_000);
});
