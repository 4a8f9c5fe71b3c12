/**
 * The account workflow as docs/test-support.md tells a new user to write it: one `Account`, a `DnsApi`, an
 * `S3Api` and `createEnv` over it; seed, snapshot and restore, faults, the call log and the
 * matchers across all of them.
 */
import Cloudflare from 'cloudflare';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeEach, describe, expect, it } from 'vitest';
import 'edge-doubles/vitest';
import { logOnFailure, testFault } from 'edge-doubles/vitest';
import { Account, Bucket, DnsApi, S3Api } from 'edge-doubles';
import { createEnv } from 'edge-doubles/node';
import { sdk } from '../s3/support.js';

describe('one account, many surfaces (the docs workflow)', () => {
  // README: account-workflow
  const account = new Account({ name: 'Acme' });
  const dns = new DnsApi({
    account,
    zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '198.51.100.4' }] }],
  });
  account.addBucket('files', new Bucket({ seed: { 'config.json': '{"mode":"test"}' } }));
  const s3 = new S3Api({ account }); // serves the account's buckets: files
  const wrangler = { compatibility_date: '2025-01-01', r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }] };
  const { env } = createEnv<{ FILES: Bucket }>(wrangler, { account }); // env.FILES is files

  const seeded = { dns: dns.snapshot(), s3: s3.snapshot() }; // s3's holds every bucket of the account
  beforeEach(() => {
    dns.restore(seeded.dns);
    s3.restore(seeded.s3);
    logOnFailure(env.FILES, dns, s3);
  });
  // README: end

  const client = sdk(s3.fetch);
  const cloudflare = new Cloudflare({ apiToken: 'any', fetch: dns.fetch, maxRetries: 0 });
  const zoneId = dns.zone('example.com')!.id;

  it('what one surface writes, the others see; the matchers read each double', async () => {
    // README: account-workflow-test
    await env.FILES.put('reports/1.csv', 'a,b'); // the Worker
    await client.send(new PutObjectCommand({ Bucket: 'files', Key: 'reports/2.csv', Body: 'c,d' })); // an S3 client
    await cloudflare.dns.records.create({
      zone_id: zoneId,
      type: 'TXT',
      name: '_acme-challenge',
      content: '"t"',
      ttl: 60,
    });

    expect(env.FILES).toHaveObject('reports/2.csv', { body: 'c,d' }); // written by S3, read from the binding
    expect(s3).toHaveObject('files/reports/1.csv', { body: 'a,b' }); // written by the Worker, read through S3
    expect(dns).toHaveDnsRecord('example.com', { type: 'TXT', name: '_acme-challenge' });
    expect(env.FILES).toHaveReceived({ op: 'put', surface: 'binding', key: 'reports/1.csv' });
    expect(s3).toHaveReceived({ op: 'put', bucket: 'files', key: 'reports/2.csv', times: 1 }); // S3 calls only
    expect(dns).toHaveReceived({ method: 'POST', path: 'zones/*/dns_records', status: 200 });
    // README: end
    expect(env.FILES).toHaveReceived({ op: 'put', times: 2 }); // the bucket's log has both surfaces
  });

  it('each test starts from the snapshot: objects, records, logs and faults', async () => {
    expect(s3).not.toHaveObject('files/reports/1.csv');
    expect(env.FILES).toHaveObject('config.json', { body: '{"mode":"test"}' });
    expect(dns).not.toHaveDnsRecord('example.com', { type: 'TXT' });
    expect(env.FILES).not.toHaveReceived();
    expect(s3).not.toHaveReceived();
    expect(dns).not.toHaveReceived();
  });

  it('one fault on the bucket fails the Worker and the S3 client alike', async () => {
    // README: account-workflow-fault
    testFault(env.FILES, { op: 'get', key: 'config.json', times: Infinity });
    await expect(env.FILES.get('config.json')).rejects.toThrow('(10001)');
    await expect(client.send(new GetObjectCommand({ Bucket: 'files', Key: 'config.json' }))).rejects.toMatchObject({
      name: 'InternalError',
    });
    expect(s3).toHaveReceived({ op: 'get', status: 'error', error: { code: 10001 }, injected: true });
    // README: end
  });

  it('a Worker of another compatibility date binds the same bucket: same objects, same log and faults', async () => {
    const { env: older } = createEnv<{ FILES: Bucket }>({ ...wrangler, compatibility_date: '2022-01-01' }, { account });
    expect(older.FILES).not.toBe(env.FILES); // its own binding over the one state
    await older.FILES.put('old.txt', 'x');
    expect(env.FILES).toHaveObject('old.txt');
    expect(s3).toHaveObject('files/old.txt');
    expect(env.FILES).toHaveReceived({ op: 'put', key: 'old.txt', times: 1 });
    testFault(env.FILES, { op: 'head' });
    await expect(older.FILES.head('old.txt')).rejects.toThrow('(10001)');
  });
});
