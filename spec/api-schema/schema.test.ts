/**
 * `CloudflareApi` against Cloudflare's published OpenAPI document (spec/api-schema/fixtures, cut by
 * scripts/extract-openapi.mjs): which of the document's operations the double serves is asked of
 * its own routes, so an operation served later is checked without editing this file. For every
 * served operation:
 * - every JSON answer (a scenario's successes and errors, and the unauthenticated answer the
 *   discovery gets) matches the document's schema for its status;
 * - every request body the double accepted matches the document's request schema;
 * - every invalid body the schema implies from an accepted one (a required field left out, a value
 *   of the wrong type, a string outside what the schema allows) is refused, sent in the state the
 *   accepted one was sent in.
 * Where the document is wrong, or the double deliberately differs, the difference is declared
 * (declarations.ts) with why and the evidence; a declaration nothing needs fails as stale.
 *
 * Not checked: query parameters and headers, and `GET /zones/{id}/pagerules` (left out of the
 * fixture: its answer reaches the document's 34 page-rule action schemas).
 */
import { describe, expect, it } from 'vitest';
import { CloudflareApi } from 'edge-doubles';
import { S3Api } from 'edge-doubles/s3';
import { CREDENTIALS } from '../s3/support.js';
import { ACCEPTED_INVALID, SCHEMA_ERRORS } from './declarations.js';
import {
  concretePath,
  hasJsonBody,
  mutants,
  servedOperations,
  SOURCE,
  templateOf,
  validator,
  type Json,
  type Operation,
} from './support.js';

// Enterprise: its records may carry tags (a Free zone's tag quota is 0).
const api = new CloudflareApi({ zones: [{ name: 'example.com', plan: 'enterprise' }] });
// Temporary credentials are minted from an S3 key pair the account knows (lib/r2-api/temp-credentials.ts).
new S3Api({ api, credentials: [CREDENTIALS] });
const account = api.account.id;
const zone = [...api.account.zones.values()][0]!.id;
const base = 'https://api.cloudflare.com/client/v4';
const auth = { authorization: `Bearer ${'t'.repeat(40)}` };

interface Exchange {
  method: string;
  path: string;
  status: number;
  body: unknown;
  /** The JSON request body, when one was sent. */
  request?: unknown;
  headers: Record<string, string>;
  /** The double's state just before a request with a JSON body: where its invalid variants are sent. */
  before?: ReturnType<CloudflareApi['snapshot']>;
}
/** Every exchange of the scenario, checked against the document at the end. */
const exchanges: Exchange[] = [];

async function send(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; json: Json }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body instanceof FormData || body instanceof Blob) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await api.fetch(`${base}${path}`, init);
  const json = (res.headers.get('content-type') ?? '').includes('json') ? await res.json() : await res.text();
  return { status: res.status, json };
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = auth,
): Promise<{ status: number; json: Json }> {
  const json = body !== undefined && !(body instanceof FormData) && !(body instanceof Blob);
  const before = json ? api.snapshot() : undefined;
  const res = await send(method, path, body, headers);
  exchanges.push({
    method,
    path: path.split('?')[0]!,
    status: res.status,
    body: res.json,
    headers,
    ...(json ? { request: body, before } : {}),
  });
  return res;
}

const ok = async (p: Promise<{ status: number; json: Json }>) => {
  const r = await p;
  expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBeLessThan(300);
  return r.json;
};
const refused = async (p: Promise<{ status: number }>) => expect((await p).status).toBeGreaterThanOrEqual(400);

/** Path parameters for the discovery: values each route's table accepts. */
const PROBE = {
  account_id: account,
  zone_id: zone,
  bucket_name: 'probe-bucket',
  queue_id: 'a'.repeat(32),
  consumer_id: 'b'.repeat(32),
  dns_record_id: 'c'.repeat(32),
  view_id: 'd'.repeat(32),
  job_id: 'probe-job',
  domain: 'probe.example.com',
  object_key: 'probe/key',
};

/** Resources the scenario leaves in place, for the reads it does not make itself. */
const live: Record<string, string> = { bucket_name: 'photos' };

/** Filled in by the first test; the later ones read it. */
let SERVED: Operation[] = [];
const discovery: Exchange[] = [];

describe(`CloudflareApi against Cloudflare's OpenAPI document (cloudflare/api-schemas ${SOURCE.commit.slice(0, 12)}, ${SOURCE.date.slice(0, 10)})`, () => {
  it("finds the served operations from the double's routes", async () => {
    const found = await servedOperations(api, base, PROBE);
    SERVED = found.map((f) => f.op);
    for (const f of found)
      discovery.push({ method: f.op.method, path: f.path, status: f.status, body: f.body, headers: {} });
    // The routes the double has always had are found, and an operation it does not serve is not.
    const ids = SERVED.map((o) => o.id);
    expect(ids).toContain('GET /zones/{zone_id}/dns_records/{dns_record_id}');
    expect(ids).toContain('POST /accounts/{account_id}/queues/{queue_id}/messages/ack');
    expect(ids).toContain('PUT /accounts/{account_id}/r2/buckets/{bucket_name}/sippy');
    expect(ids).toContain('PUT /accounts/{account_id}/r2/buckets/{bucket_name}/local-uploads');
    expect(ids).not.toContain('GET /zones/{zone_id}/dns_records/usage');
  });

  it('the validator can fail: a bucket name that is not a string, an error body with success true', () => {
    const v = validator(SCHEMA_ERRORS);
    const bucket = { name: 'bbb', creation_date: '2026-01-01T00:00:00.000Z', location: 'WEUR' };
    const path = `/accounts/${account}/r2/buckets/bbb`;
    const envelope = { success: true, errors: [], messages: [] };
    expect(v.response('GET', path, 200, { ...envelope, result: bucket })!.errors).toEqual([]);
    expect(v.response('GET', path, 200, { ...envelope, result: { ...bucket, name: 7 } })!.errors).not.toEqual([]);
    expect(
      v.response('GET', path, 404, { ...envelope, result: null, errors: [{ code: 10006, message: 'x' }] })!.errors,
    ).not.toEqual([]);
    expect(v.request('POST', `/accounts/${account}/r2/buckets`, { name: 'ok-name' })!.errors).toEqual([]);
    expect(v.request('POST', `/accounts/${account}/r2/buckets`, {})!.errors).not.toEqual([]);
  });

  it('accounts, user, token verify', async () => {
    await ok(call('GET', '/accounts'));
    await ok(call('GET', `/accounts/${account}`));
    await refused(call('GET', `/accounts/${'f'.repeat(32)}`));
    await refused(call('GET', '/accounts?direction=sideways'));
    await ok(call('GET', '/user', undefined, { 'x-auth-email': 'ops@example.com', 'x-auth-key': 'k'.repeat(37) }));
    await refused(call('GET', '/user')); // a token has no user
    await ok(call('GET', '/user/tokens/verify'));
    await refused(call('GET', '/user/tokens/verify', undefined, { authorization: 'Basic not-a-token' }));
  });

  it('zones: list, create, get, edit, DNS settings, DNSSEC, delete', async () => {
    await ok(call('GET', '/zones'));
    await refused(call('GET', '/zones?per_page=0'));
    await ok(call('GET', `/zones/${zone}`));
    await refused(call('GET', `/zones/${'e'.repeat(32)}`));
    const made = await ok(call('POST', '/zones', { name: 'admin.example', account: { id: account }, type: 'full' }));
    const id = made.result.id as string;
    await refused(call('POST', '/zones', { name: 'admin.example', account: { id: account } }));
    await ok(call('PATCH', `/zones/${id}`, { paused: true }));
    await ok(call('GET', `/zones/${id}/dns_settings`));
    await ok(
      call('PATCH', `/zones/${id}/dns_settings`, {
        ns_ttl: 3600,
        flatten_all_cnames: false,
        zone_mode: 'standard',
        soa: {
          min_ttl: 600,
          mname: null,
          rname: 'admin.admin.example',
          refresh: 10000,
          retry: 2400,
          expire: 604800,
          ttl: 3600,
        },
        nameservers: { type: 'cloudflare.standard' },
        internal_dns: {},
      }),
    );
    await refused(call('GET', `/zones/${'e'.repeat(32)}/dns_settings`));
    await ok(call('GET', `/zones/${id}/dnssec`));
    await ok(
      call('PATCH', `/zones/${id}/dnssec`, { status: 'active', dnssec_multi_signer: false, dnssec_use_nsec3: false }),
    );
    await refused(call('GET', `/zones/${'e'.repeat(32)}/dnssec`));
    await ok(call('GET', `/zones/${id}/dnssec/zsk`));
    // Deleting is refused until DNSSEC is disabled (lib/dns/zone-admin.ts), then answered.
    await refused(call('DELETE', `/zones/${id}/dnssec`));
    await ok(call('PATCH', `/zones/${id}/dnssec`, { status: 'disabled' }));
    await ok(call('DELETE', `/zones/${id}/dnssec`));
    await refused(call('DELETE', `/zones/${'e'.repeat(32)}/dnssec`));
    await ok(call('DELETE', `/zones/${id}`));
    await refused(call('DELETE', `/zones/${id}`));
  });

  it('DNS records: list, create, get, put, patch, delete, batch, export, import, scan, review', async () => {
    const made = await ok(
      call('POST', `/zones/${zone}/dns_records`, {
        type: 'A',
        name: 'www.example.com',
        content: '198.51.100.4',
        ttl: 300,
        proxied: false,
        comment: 'web',
        tags: ['team:web'],
        settings: { ipv4_only: false, ipv6_only: false },
      }),
    );
    const id = made.result.id as string;
    await ok(call('POST', `/zones/${zone}/dns_records`, { type: 'TXT', name: 'note.example.com', content: '"hello"' }));
    await ok(
      call('POST', `/zones/${zone}/dns_records`, {
        type: 'MX',
        name: 'example.com',
        content: 'mail.example.com',
        priority: 10,
        ttl: 1,
      }),
    );
    await ok(
      call('POST', `/zones/${zone}/dns_records`, {
        type: 'SRV',
        name: '_sip._tcp.example.com',
        data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
      }),
    );
    await ok(
      call('POST', `/zones/${zone}/dns_records`, {
        type: 'CAA',
        name: 'example.com',
        data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
      }),
    );
    await refused(call('POST', `/zones/${zone}/dns_records`, { type: 'A', name: 'bad.example.com', content: 'x' }));
    await ok(call('GET', `/zones/${zone}/dns_records`));
    await refused(call('GET', `/zones/${zone}/dns_records?page=0`));
    await ok(call('GET', `/zones/${zone}/dns_records/${id}`));
    await refused(call('GET', `/zones/${zone}/dns_records/${'0'.repeat(32)}`));
    await ok(
      call('PUT', `/zones/${zone}/dns_records/${id}`, {
        type: 'A',
        name: 'www.example.com',
        content: '198.51.100.5',
        ttl: 1,
        proxied: true,
      }),
    );
    await ok(call('PATCH', `/zones/${zone}/dns_records/${id}`, { proxied: false, comment: 'edited', ttl: 600 }));
    await refused(call('PATCH', `/zones/${zone}/dns_records/${'0'.repeat(32)}`, { proxied: true }));
    await ok(
      call('POST', `/zones/${zone}/dns_records/batch`, {
        posts: [{ type: 'A', name: 'batch.example.com', content: '198.51.100.6', ttl: 300 }],
        patches: [{ id, comment: 'batched' }],
      }),
    );
    await ok(call('GET', `/zones/${zone}/dns_records/export`));
    const form = new FormData();
    form.set('file', new Blob(['imported.example.com. 300 IN A 198.51.100.9\n']), 'zone.txt');
    await ok(call('POST', `/zones/${zone}/dns_records/import`, form));
    await refused(call('POST', `/zones/${zone}/dns_records/import`, new FormData()));
    await ok(call('POST', `/zones/${zone}/dns_records/scan`));
    await refused(call('POST', `/zones/${'e'.repeat(32)}/dns_records/scan`));
    await ok(call('POST', `/zones/${zone}/dns_records/scan/trigger`));
    await ok(call('GET', `/zones/${zone}/dns_records/scan/review`));
    await ok(
      call('POST', `/zones/${zone}/dns_records/scan/review`, {
        accepts: [{ type: 'A', name: 'scanned.example.com', content: '198.51.100.8' }],
      }),
    );
    await ok(call('DELETE', `/zones/${zone}/dns_records/${id}`));
    await refused(call('DELETE', `/zones/${zone}/dns_records/${id}`));
  });

  it("the account's DNS settings and internal DNS views", async () => {
    const settings = `/accounts/${account}/dns_settings`;
    await ok(call('GET', settings));
    await refused(call('GET', `/accounts/${'f'.repeat(32)}/dns_settings`));
    await ok(
      call('PATCH', settings, {
        enforce_dns_only: false,
        zone_defaults: {
          flatten_all_cnames: false,
          foundation_dns: false,
          internal_dns: { reference_zone_id: zone },
          multi_provider: false,
          nameservers: { type: 'cloudflare.standard' },
          ns_ttl: 86400,
          secondary_overrides: false,
          soa: {
            expire: 604800,
            min_ttl: 1800,
            mname: null,
            refresh: 10000,
            retry: 2400,
            rname: 'dns.example.com',
            ttl: 3600,
          },
          zone_mode: 'standard',
        },
      }),
    );
    await refused(call('PATCH', settings, { zone_defaults: { ns_ttl: 5 } }));
    const views = `${settings}/views`;
    const view = await ok(call('POST', views, { name: 'internal', zones: [zone] }));
    const id = view.result.id as string;
    await refused(call('POST', views, { name: 'internal', zones: [] })); // the name is taken
    await ok(call('GET', views));
    await refused(call('GET', `${views}?match=some`));
    await ok(call('GET', `${views}/${id}`));
    await refused(call('GET', `${views}/${'d'.repeat(32)}`));
    await ok(call('PATCH', `${views}/${id}`, { name: 'renamed', zones: [zone] }));
    await refused(call('PATCH', `${views}/${'d'.repeat(32)}`, { name: 'other' }));
    await ok(call('DELETE', `${views}/${id}`));
    await refused(call('DELETE', `${views}/${id}`));
  });

  it('R2 buckets and their settings: CORS, lifecycle, locks, domains, Sippy, objects, temporary credentials', async () => {
    const buckets = `/accounts/${account}/r2/buckets`;
    await ok(call('POST', buckets, { name: 'photos', locationHint: 'weur', storageClass: 'Standard' }));
    await ok(call('POST', buckets, { name: 'ia-bucket', storageClass: 'InfrequentAccess' }));
    await refused(call('POST', buckets, { name: 'photos' }));
    await ok(call('GET', buckets));
    await refused(call('GET', `${buckets}?per_page=0`));
    await ok(call('GET', `${buckets}/photos`));
    await refused(call('GET', `${buckets}/absent`));
    await ok(call('PATCH', `${buckets}/photos`, undefined, { ...auth, 'cf-r2-storage-class': 'InfrequentAccess' }));
    await refused(call('PATCH', `${buckets}/photos`, undefined, { ...auth, 'cf-r2-storage-class': 'Glacier' }));

    const photos = `${buckets}/photos`;
    await ok(
      call('PUT', `${photos}/cors`, {
        rules: [
          {
            id: 'web',
            allowed: { origins: ['https://example.com'], methods: ['GET', 'PUT'], headers: ['x-id'] },
            exposeHeaders: ['etag'],
            maxAgeSeconds: 3600,
          },
        ],
      }),
    );
    await ok(call('GET', `${photos}/cors`));
    await ok(call('DELETE', `${photos}/cors`));
    await refused(call('GET', `${buckets}/absent/cors`));
    await ok(
      call('PUT', `${photos}/lifecycle`, {
        rules: [
          {
            id: 'expire-logs',
            enabled: true,
            conditions: { prefix: 'logs/' },
            deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
            abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 604800 } },
            storageClassTransitions: [{ condition: { type: 'Age', maxAge: 3600 }, storageClass: 'InfrequentAccess' }],
          },
        ],
      }),
    );
    await ok(call('GET', `${photos}/lifecycle`));
    await refused(call('GET', `${buckets}/absent/lifecycle`));
    await ok(
      call('PUT', `${photos}/lock`, {
        rules: [{ id: 'hold', enabled: true, prefix: 'legal/', condition: { type: 'Age', maxAgeSeconds: 86400 } }],
      }),
    );
    await ok(call('GET', `${photos}/lock`));
    await ok(call('PUT', `${photos}/lock`, { rules: [] }));
    await refused(call('GET', `${buckets}/absent/lock`));
    await ok(call('PUT', `${photos}/domains/managed`, { enabled: true }));
    await ok(call('GET', `${photos}/domains/managed`));
    await refused(call('GET', `${buckets}/absent/domains/managed`));
    await ok(
      call('POST', `${photos}/domains/custom`, {
        domain: 'cdn.example.com',
        zoneId: zone,
        enabled: true,
        minTLS: '1.2',
      }),
    );
    await ok(call('GET', `${photos}/domains/custom`));
    await ok(call('GET', `${photos}/domains/custom/cdn.example.com`));
    await ok(call('PUT', `${photos}/domains/custom/cdn.example.com`, { enabled: false, minTLS: '1.3' }));
    await ok(call('DELETE', `${photos}/domains/custom/cdn.example.com`));
    await refused(call('GET', `${photos}/domains/custom/cdn.example.com`));
    await ok(
      call('PUT', `${photos}/sippy`, {
        source: {
          provider: 'aws',
          bucket: 'legacy',
          region: 'us-east-1',
          accessKeyId: 'AKIASOURCE000000',
          secretAccessKey: 'source-secret-0123456789',
        },
        destination: { provider: 'r2', accessKeyId: 'r2-key-id', secretAccessKey: 'r2-secret' },
      }),
    );
    await ok(call('GET', `${photos}/sippy`));
    await ok(call('DELETE', `${photos}/sippy`));
    await refused(call('GET', `${buckets}/absent/sippy`));
    await ok(call('PUT', `${photos}/objects/notes/a.txt`, new Blob(['hello'])));
    await ok(call('GET', `${photos}/objects/notes/a.txt`));
    await ok(call('DELETE', `${photos}/objects/notes/a.txt`));
    await refused(call('PUT', `${buckets}/absent/objects/a.txt`, new Blob(['x'])));
    await ok(
      call('POST', `/accounts/${account}/r2/temp-access-credentials`, {
        bucket: 'photos',
        parentAccessKeyId: CREDENTIALS.accessKeyId,
        permission: 'object-read-write',
        ttlSeconds: 900,
        prefixes: ['notes/'],
      }),
    );
    await ok(call('DELETE', `${buckets}/ia-bucket`));
    await refused(call('DELETE', `${buckets}/ia-bucket`));
  });

  it("R2's object collection, bulk and prefix deletes, bucket jobs, local uploads, metrics", async () => {
    const buckets = `/accounts/${account}/r2/buckets`;
    const photos = `${buckets}/photos`;
    for (const key of ['a.txt', 'b.txt', 'held/c.txt', 'logs/1', 'logs/2'])
      await ok(call('PUT', `${photos}/objects/${key}`, new Blob([key])));
    // An object with HTTP metadata, so the listing shows each field (`cacheExpiry` a date-time).
    await ok(
      call('PUT', `${photos}/objects/page.html`, new Blob(['<p>']), {
        ...auth,
        'content-type': 'text/html',
        'cache-control': 'max-age=60',
        'content-language': 'en',
        expires: 'Wed, 21 Oct 2026 07:28:00 GMT',
      }),
    );
    await ok(call('GET', `${photos}/objects?per_page=2`));
    await ok(call('GET', `${photos}/objects?delimiter=/`));
    await refused(call('GET', `${photos}/objects?per_page=0`));
    await refused(call('GET', `${buckets}/absent/objects`));
    // A key a lock rule keeps is reported among the errors; the others go.
    await ok(
      call('PUT', `${photos}/lock`, {
        rules: [{ id: 'hold', enabled: true, prefix: 'held/', condition: { type: 'Indefinite' } }],
      }),
    );
    const bulk = await ok(call('DELETE', `${photos}/objects`, ['a.txt', 'b.txt', 'held/c.txt']));
    expect(bulk.errors).toHaveLength(1);
    await ok(call('PUT', `${photos}/lock`, { rules: [] }));
    await refused(call('DELETE', `${buckets}/absent/objects`, ['a.txt']));
    const job = await ok(call('DELETE', `${photos}/objects?prefix=logs/`));
    await refused(call('DELETE', `${photos}/objects?prefix=logs`)); // a prefix ends in /
    await ok(call('GET', `${photos}/jobs`));
    await refused(call('GET', `${photos}/jobs?jobType=copy`));
    await ok(call('GET', `${photos}/jobs/${job.result.id as string}`));
    await refused(call('GET', `${photos}/jobs/absent-job`));
    await ok(call('PUT', `${photos}/local-uploads`, { enabled: true }));
    await ok(call('GET', `${photos}/local-uploads`));
    await refused(call('GET', `${buckets}/absent/local-uploads`));
    await refused(call('PUT', `${buckets}/absent/local-uploads`, { enabled: false }));
    await ok(call('GET', `/accounts/${account}/r2/metrics`));
    await refused(call('GET', `/accounts/${'f'.repeat(32)}/r2/metrics`));
  });

  it('queues, consumers, messages and event notifications', async () => {
    const queues = `/accounts/${account}/queues`;
    const q = await ok(call('POST', queues, { queue_name: 'uploads' }));
    const queueId = q.result.queue_id as string;
    await refused(call('POST', queues, { queue_name: 'uploads' }));
    await ok(call('GET', queues));
    await ok(call('GET', `${queues}/${queueId}`));
    await refused(call('GET', `${queues}/${'a'.repeat(32)}`));
    await ok(
      call('PUT', `${queues}/${queueId}`, {
        queue_name: 'uploads',
        settings: { delivery_delay: 5, delivery_paused: false, message_retention_period: 345600 },
      }),
    );
    await ok(call('PATCH', `${queues}/${queueId}`, { settings: { delivery_delay: 0 } }));
    await refused(call('PATCH', `${queues}/${'a'.repeat(32)}`, { settings: { delivery_delay: 0 } }));

    const config = `/accounts/${account}/event_notifications/r2/photos/configuration`;
    await refused(call('GET', config)); // no rules: 11015
    await ok(
      call('PUT', `${config}/queues/${queueId}`, {
        rules: [{ prefix: 'img/', suffix: '.png', actions: ['PutObject', 'CopyObject'], description: 'd' }],
      }),
    );
    const rules = await ok(call('GET', config));
    await refused(call('DELETE', `/accounts/${account}/r2/buckets/photos/objects?prefix=`)); // 409: rules first
    await ok(call('GET', `${config}/queues/${queueId}`));
    await refused(call('GET', `/accounts/${account}/event_notifications/r2/absent/configuration`));
    const ruleId = rules.result.queues[0].rules[0].ruleId as string;
    await ok(call('DELETE', `${config}/queues/${queueId}`, { ruleIds: [ruleId] }));
    await refused(call('DELETE', `${config}/queues/${'a'.repeat(32)}`));

    const consumers = `${queues}/${queueId}/consumers`;
    await ok(call('GET', consumers));
    await refused(call('GET', `${queues}/${'a'.repeat(32)}/consumers`));
    const worker = await ok(
      call('POST', consumers, {
        type: 'worker',
        script_name: 'w',
        dead_letter_queue: 'uploads-dlq',
        settings: { batch_size: 5, max_retries: 3, max_wait_time_ms: 5000, retry_delay: 10, max_concurrency: 2 },
      }),
    );
    const workerId = worker.result.consumer_id as string;
    await ok(call('GET', `${consumers}/${workerId}`));
    await refused(call('GET', `${consumers}/${'b'.repeat(32)}`));
    await ok(
      call('PUT', `${consumers}/${workerId}`, { type: 'worker', script_name: 'w', settings: { batch_size: 7 } }),
    );
    await refused(call('PUT', `${consumers}/${'b'.repeat(32)}`, { type: 'http_pull', settings: {} }));
    await ok(call('DELETE', `${consumers}/${workerId}`));
    await refused(call('DELETE', `${consumers}/${workerId}`));
    const messages = `${queues}/${queueId}/messages`;
    await refused(call('POST', `${messages}/pull`, {})); // no pull consumer yet
    await ok(
      call('POST', consumers, {
        type: 'http_pull',
        settings: { batch_size: 2, max_retries: 3, retry_delay: 0, visibility_timeout_ms: 1000 },
      }),
    );
    await ok(call('POST', messages, { body: 'hello', content_type: 'text', delay_seconds: 0 }));
    await ok(
      call('POST', `${messages}/batch`, {
        messages: [
          { body: 'one', content_type: 'text' },
          { body: { n: 2 }, content_type: 'json' },
        ],
        delay_seconds: 0,
      }),
    );
    const pulled = await ok(call('POST', `${messages}/pull`, { batch_size: 2, visibility_timeout_ms: 1000 }));
    const [first, second] = pulled.result.messages as { lease_id: string }[];
    await ok(
      call('POST', `${messages}/ack`, {
        acks: [{ lease_id: first!.lease_id }],
        retries: [{ lease_id: second!.lease_id, delay_seconds: 0 }],
      }),
    );
    await refused(call('POST', `${queues}/${'a'.repeat(32)}/messages/ack`, { acks: [] }));
    await ok(call('GET', `${queues}/${queueId}/purge`)); // no purge yet: {}
    await refused(call('GET', `${queues}/${'a'.repeat(32)}/purge`));
    // Peeks and previews lease nothing; their refs delete what they name.
    await ok(
      call('POST', `${messages}/batch`, {
        messages: [
          { body: 'three', content_type: 'text' },
          { body: 'four', content_type: 'text' },
          { body: 'five', content_type: 'text' },
        ],
      }),
    );
    const peeked = await ok(call('POST', `${messages}/peek`, { batch_size: 3 }));
    await refused(call('POST', `${queues}/${'a'.repeat(32)}/messages/peek`, { batch_size: 1 }));
    const previewed = await ok(call('POST', `${messages}/preview`, { batch_size: 3 }));
    await refused(call('POST', `${queues}/${'a'.repeat(32)}/messages/preview`, {}));
    await ok(
      call('POST', `${messages}/purge`, {
        refs: [{ ref: peeked.result.messages[0].ref as string }, { ref: 'not-a-ref' }], // the second: a warning
      }),
    );
    await refused(call('POST', `${queues}/${'a'.repeat(32)}/messages/purge`, { refs: [] }));
    await ok(
      call('POST', `${messages}/preview/ack`, {
        acks: [{ lease_id: previewed.result.messages[1].lease_id as string }],
        retries: [{ lease_id: previewed.result.messages[2].lease_id as string, delay_seconds: 0 }],
      }),
    );
    await refused(call('POST', `${queues}/${'a'.repeat(32)}/messages/preview/ack`, { acks: [] }));
    const leased = await ok(call('POST', `${messages}/pull`, { batch_size: 1, visibility_timeout_ms: 1000 }));
    await ok(
      call('POST', `${messages}/extend`, {
        extend: [{ lease_id: leased.result.messages[0].lease_id as string }, { lease_id: 'gone' }],
        visibility_timeout_ms: 5000,
      }),
    );
    await refused(call('POST', `${queues}/${'a'.repeat(32)}/messages/extend`, { extend: [] }));
    await ok(call('GET', `${queues}/${queueId}/metrics`));
    await refused(call('GET', `${queues}/${'a'.repeat(32)}/metrics`));
    await ok(call('POST', `${queues}/${queueId}/purge`, { delete_messages_permanently: true }));
    await ok(call('GET', `${queues}/${queueId}/purge`));
    await refused(call('POST', `${queues}/${'a'.repeat(32)}/purge`, { delete_messages_permanently: true }));
    await ok(call('DELETE', `${queues}/${queueId}`));
    await refused(call('DELETE', `${queues}/${queueId}`));
    // Kept for the reads of operations the scenario does not call (below).
    live.queue_id = (await ok(call('POST', queues, { queue_name: 'kept' }))).result.queue_id as string;
  });

  it("reads what the scenario does not call: a served GET on the scenario's account, zone, bucket and queue", async () => {
    // An operation served later is called here before anyone writes a scenario line for it, so its
    // answer is checked at once; one that needs more (a body, an id of its own) is named below.
    const succeeded = new Set(exchanges.filter((e) => e.status < 300).map((e) => `${e.method} ${templateOf(e.path)}`));
    for (const op of SERVED.filter((o) => o.method === 'GET' && !succeeded.has(o.id)))
      await call('GET', concretePath(op.template, { ...PROBE, ...live }));
  });

  it('every served operation answered a success and an error, each JSON answer matching the document', () => {
    const v = validator(SCHEMA_ERRORS);
    const all = [...discovery, ...exchanges];
    const answered = (pred: (e: Exchange) => boolean) =>
      new Set(
        all
          .filter(pred)
          .map((e) => templateOf(e.path) && `${e.method} ${templateOf(e.path)}`)
          .filter(Boolean),
      );
    const succeeded = answered((e) => e.status < 300);
    const failed = answered((e) => e.status >= 400);
    expect(SERVED.filter((o) => !succeeded.has(o.id)).map((o) => `${o.id}: no success in the scenario`)).toEqual([]);
    expect(SERVED.filter((o) => !failed.has(o.id)).map((o) => `${o.id}: no error answer`)).toEqual([]);
    const problems = all
      .map((e) => ({ e, c: v.response(e.method, e.path, e.status, e.body) }))
      .filter(({ c }) => c && c.errors.length > 0)
      .map(
        ({ e, c }) =>
          `${c!.operation} ${e.status}: ${c!.errors.slice(0, 4).join('; ')} in ${JSON.stringify(e.body).slice(0, 300)}`,
      );
    expect(problems).toEqual([]);
  });

  it('every request body the double accepted matches the document', () => {
    const v = validator(SCHEMA_ERRORS);
    const problems = exchanges
      .filter((e) => e.status < 300 && e.request !== undefined)
      .map((e) => ({ e, c: v.request(e.method, e.path, e.request) }))
      .filter(({ c }) => c && c.errors.length > 0)
      .map(({ e, c }) => `${c!.operation}: ${c!.errors.join('; ')} in ${JSON.stringify(e.request)}`);
    expect(problems).toEqual([]);
  });

  it('every invalid body the schema implies is refused, sent in the state the valid one was accepted in', async () => {
    const v = validator(SCHEMA_ERRORS);
    const accepted = exchanges.filter((e) => e.status < 300 && e.request !== undefined && e.before);
    // Every served operation that takes a JSON body had one accepted, so its variants were tried.
    const tried = new Set(accepted.map((e) => `${e.method} ${templateOf(e.path)}`));
    expect(SERVED.filter((o) => hasJsonBody(o) && !tried.has(o.id)).map((o) => o.id)).toEqual([]);
    const accepts: string[] = [];
    const declared = new Set<string>();
    const sent = new Map<string, number>();
    for (const e of accepted) {
      const operation = `${e.method} ${templateOf(e.path)}`;
      const invalid = (candidate: unknown) => (v.request(e.method, e.path, candidate)?.errors.length ?? 0) > 0;
      for (const m of mutants(e.request, invalid)) {
        api.restore(e.before!);
        const r = await send(e.method, e.path, m.body, e.headers);
        sent.set(operation, (sent.get(operation) ?? 0) + 1);
        if (r.status >= 400) {
          // The refusal is an answer of the operation too: it matches the document's error schema.
          const c = v.response(e.method, e.path, r.status, r.json);
          if (c && c.errors.length)
            accepts.push(`${operation} ${m.what}: error answer ${r.status} off the schema: ${c.errors.join('; ')}`);
        }
        if (r.status < 300) {
          const d = ACCEPTED_INVALID.find((x) => x.operation === operation && x.matches.test(m.what));
          if (d) declared.add(d.id);
          else accepts.push(`${operation} ${m.what}: ${r.status} for ${JSON.stringify(m.body).slice(0, 200)}`);
        } else if (r.status === 429 || r.status >= 500) {
          accepts.push(`${operation} ${m.what}: ${r.status}, not a refusal of the body`);
        }
      }
    }
    // Each of them had at least one invalid variant to send.
    expect([...tried].filter((op) => !sent.get(op))).toEqual([]);
    expect(accepts).toEqual([]);
    expect(ACCEPTED_INVALID.filter((d) => !declared.has(d.id)).map((d) => `${d.id}: stale`)).toEqual([]);
  }, 60_000);

  it('every declared error of the document is still needed', () => {
    // A declaration is needed while leaving it out makes some answer or accepted body fail.
    const all = [...discovery, ...exchanges];
    const stale = SCHEMA_ERRORS.filter((d) => {
      const without = validator(SCHEMA_ERRORS.filter((x) => x !== d));
      return all.every(
        (e) =>
          (without.response(e.method, e.path, e.status, e.body)?.errors.length ?? 0) === 0 &&
          (e.status >= 300 ||
            e.request === undefined ||
            (without.request(e.method, e.path, e.request)?.errors.length ?? 0) === 0),
      );
    });
    expect(stale.map((d) => d.id)).toEqual([]);
  }, 60_000);
});
