/**
 * The account's queues over the API (lib/queue/routes.ts), through the official SDK in process:
 * what `wrangler queues create/list/delete` and R2's notification setup call.
 */
import { describe, expect, it } from 'vitest';
import Cloudflare from 'cloudflare';
import { CloudflareApi, ManualClock } from 'edge-doubles';

function setup() {
  const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
  const api = new CloudflareApi({ clock });
  const client = new Cloudflare({
    apiToken: 't'.repeat(40),
    apiEmail: null,
    apiKey: null,
    fetch: api.fetch,
    maxRetries: 0,
  });
  return { api, client, clock, account_id: api.account.id };
}

describe('queues over the API', () => {
  it('create, list (with the name filter), get, edit and delete', async () => {
    const { client, account_id, clock } = setup();
    const made = await client.queues.create({ account_id, queue_name: 'uploads' });
    expect(made).toMatchObject({
      queue_name: 'uploads',
      created_on: '2026-11-26T12:00:00.000Z',
      producers_total_count: 0,
      consumers_total_count: 0,
    });
    expect(made.queue_id).toMatch(/^[0-9a-f]{32}$/);
    await client.queues.create({ account_id, queue_name: 'other' });
    const all = [];
    for await (const q of client.queues.list({ account_id })) all.push(q.queue_name);
    expect(all).toEqual(['uploads', 'other']);
    const byName = await fetchNames(client, account_id, 'other');
    expect(byName).toEqual(['other']);
    expect(await client.queues.get(made.queue_id!, { account_id })).toMatchObject({ queue_name: 'uploads' });
    clock.advance(60_000);
    const edited = await client.queues.edit(made.queue_id!, { account_id, settings: { delivery_delay: 30 } });
    expect(edited).toMatchObject({ settings: { delivery_delay: 30 }, modified_on: '2026-11-26T12:01:00.000Z' });
    await client.queues.delete(made.queue_id!, { account_id });
    await expect(client.queues.get(made.queue_id!, { account_id })).rejects.toMatchObject({
      status: 404,
      errors: [{ code: 10104 }],
    });
  });

  it('refuses a taken name, a bad name, bad settings and a malformed id, changing nothing', async () => {
    const { client, account_id } = setup();
    await client.queues.create({ account_id, queue_name: 'jobs' });
    await expect(client.queues.create({ account_id, queue_name: 'jobs' })).rejects.toMatchObject({
      status: 409,
      errors: [{ code: 11009 }],
    });
    await expect(client.queues.create({ account_id, queue_name: 'Not Valid' })).rejects.toMatchObject({ status: 400 });
    await expect(
      client.queues.create({ account_id, queue_name: 'slow', settings: { delivery_delay: 999999 } } as never),
    ).rejects.toMatchObject({ errors: [{ code: 100128 }] });
    await expect(client.queues.get('not-an-id!', { account_id })).rejects.toMatchObject({
      status: 400,
      errors: [{ code: 10107 }],
    });
    expect(await fetchNames(client, account_id)).toEqual(['jobs']);
  });
});

async function fetchNames(client: Cloudflare, account_id: string, name?: string) {
  const out: string[] = [];
  // The SDK's list params carry no name filter; wrangler sends it as a query parameter.
  for await (const q of client.queues.list({ account_id }, name ? { query: { name } } : undefined))
    out.push(q.queue_name!);
  return out;
}

describe('the account snapshot holds the queues as the API shows them (issue 24)', () => {
  it('restore brings back settings changed after the snapshot, and the modified time', async () => {
    const { api, client, account_id, clock } = setup();
    const made = await client.queues.create({ account_id, queue_name: 'uploads' });
    await client.queues.edit(made.queue_id!, { account_id, settings: { delivery_delay: 5 } });
    const snap = api.snapshot();
    clock.advance(60_000);
    await client.queues.update(made.queue_id!, {
      account_id,
      queue_name: 'uploads',
      settings: { delivery_delay: 30, message_retention_period: 600 },
    });
    await client.queues.create({ account_id, queue_name: 'later' });
    api.restore(snap);
    const back = await client.queues.get(made.queue_id!, { account_id });
    expect(back).toMatchObject({
      queue_name: 'uploads',
      settings: { delivery_delay: 5, message_retention_period: 345600 },
      modified_on: '2026-11-26T12:00:00.000Z',
    });
    const all = [];
    for await (const q of client.queues.list({ account_id })) all.push(q.queue_name);
    expect(all).toEqual(['uploads']);
  });
});
