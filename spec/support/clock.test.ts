/**
 * One clock for every double: a ManualClock (or any function) shared by buckets and a DnsApi, and
 * Vitest's fake timers with no option at all. `uploaded`, `created_on`, `modified_on`, multipart
 * expiry and injected delays all follow it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';
import { ManualClock } from 'edge-doubles';

afterEach(() => {
  vi.useRealTimers();
});

const DAY = 24 * 60 * 60 * 1000;

async function createRecord(api: DnsApi, name: string) {
  const zoneId = api.zone('example.com')!.id;
  const res = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'A', name, content: '198.51.100.4', ttl: 300 }),
  });
  return ((await res.json()) as { result: { id: string; created_on: string; modified_on: string } }).result;
}

describe('one clock', () => {
  it('a ManualClock shared by two buckets and a DnsApi gives them one time', async () => {
    // README: clock
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const files = new Bucket({ clock });
    const backups = new Bucket({ clock });
    const dns = new DnsApi({ zones: [{ name: 'example.com' }], clock });

    await files.put('a', '1');
    clock.advance(60_000);
    await backups.put('b', '2');
    const record = await createRecord(dns, 'www');

    expect((await files.head('a'))!.uploaded.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect((await backups.head('b'))!.uploaded.toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect(record.created_on).toBe('2026-01-01T00:01:00Z');
    // README: end
  });

  it('modified_on moves with the clock on an update; created_on stays', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1));
    const api = new DnsApi({ zones: [{ name: 'example.com' }], clock });
    const zoneId = api.zone('example.com')!.id;
    const rec = await createRecord(api, 'www');
    clock.set(Date.UTC(2026, 5, 2));
    const res = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records/${rec.id}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ ttl: 600 }),
    });
    const { result } = (await res.json()) as { result: { created_on: string; modified_on: string } };
    expect(result).toMatchObject({ created_on: '2026-06-01T00:00:00Z', modified_on: '2026-06-02T00:00:00Z' });
  });

  it('multipart expiry follows a ManualClock', async () => {
    const clock = new ManualClock(0);
    const bucket = new Bucket({ clock });
    const upload = await bucket.createMultipartUpload('big');
    clock.advance(7 * DAY - 1);
    await expect(upload.uploadPart(1, 'x')).resolves.toMatchObject({ partNumber: 1 });
    clock.advance(1);
    await expect(upload.uploadPart(2, 'x')).rejects.toThrow(
      'uploadPart: The specified multipart upload does not exist. (10024)',
    );
  });

  it("with no option, Vitest's fake timers set the time of both doubles", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-03-04T05:06:07.089Z'));
    const bucket = new Bucket();
    const api = new DnsApi({ zones: [{ name: 'example.com' }] });
    await bucket.put('k', 'v');
    const rec = await createRecord(api, 'www');
    expect((await bucket.head('k'))!.uploaded.toISOString()).toBe('2030-03-04T05:06:07.089Z');
    expect(rec.created_on).toBe('2030-03-04T05:06:07.089Z');
    expect(rec.modified_on).toBe('2030-03-04T05:06:07.089Z');
  });

  it('a function clock works too (shared, read at each operation)', async () => {
    let now = 1_000;
    const bucket = new Bucket({ clock: () => now });
    await bucket.put('a', '1');
    now = 2_000;
    await bucket.put('b', '1');
    expect((await bucket.head('a'))!.uploaded.getTime()).toBe(1_000);
    expect((await bucket.head('b'))!.uploaded.getTime()).toBe(2_000);
  });

  it('ManualClock releases delays in time order and refuses going backwards by advance', async () => {
    const clock = new ManualClock(0);
    const order: number[] = [];
    const a = clock.sleep(30).then(() => order.push(30));
    const b = clock.sleep(10).then(() => order.push(10));
    expect(clock.pending).toBe(2);
    clock.advance(100);
    await Promise.all([a, b]);
    expect(order).toEqual([10, 30]);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});
