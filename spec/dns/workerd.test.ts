import type { Miniflare } from 'miniflare';
import { startWorkerdWorker, type WorkerdWorker } from '../helpers/workerd-worker.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// lib/dns must run in workerd: bundle a Worker that uses it and run it in the real runtime.
let worker: WorkerdWorker;
let mf: Miniflare;

beforeAll(async () => {
  worker = await startWorkerdWorker('spec/dns/fixtures/worker.ts');
  mf = worker.mf;
}, 60_000);

afterAll(async () => {
  await worker?.dispose();
});

describe('DnsApi inside workerd', () => {
  it('is built at module scope and serves records, IDNA, IPv6, multipart import and export', async () => {
    const res = await mf.dispatchFetch('http://worker/selftest');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      idn: 'xn--bcher-kva.example.com',
      v6: '2001:db8::1',
      imported: { recs_added: 1, total_records_parsed: 1 },
    });
    expect(body.exportLines).toEqual([
      'xn--bcher-kva.example.com.\t1\tIN\tA\t198.51.100.1 ; cf_tags=cf-proxied:false',
      'v6.example.com.\t1\tIN\tAAAA\t2001:db8::1 ; cf_tags=cf-proxied:false',
      'x.example.com.\t300\tIN\tTXT\t"hi"',
    ]);
    expect((body.zones as string[])[1]).toMatch(/^[0-9a-f]{32}$/);
    // api.resolve runs there too: 0x20 echo, TXT unquoted, HTTPS RDATA (RFC 9460) with an IPv6 hint.
    const v6hint = [0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 1];
    expect(body.resolved).toEqual({
      txt: [['X.example.com', ['hi']]],
      https: [0, 1, 0, 0, 1, 0, 3, 2, 0x68, 0x32, 0, 6, 0, 16, ...v6hint],
    });
  });

  it('api.handle answers requests dispatched to the Worker, errors in the envelope', async () => {
    const res = await mf.dispatchFetch(`http://worker/client/v4/zones/${'a'.repeat(32)}/dns_records/nope`, {
      headers: { authorization: 'Bearer t' },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errors: { code: number }[] }).errors[0]!.code).toBe(7003);
  });
});
