/**
 * wrangler (4.86.0, the real CLI) against the API double over HTTP: `r2 bucket cors set|list|delete`,
 * `r2 bucket dev-url enable|get|disable` and `r2 bucket domain add|list|remove`, each checked by
 * its effect on another surface over the same bucket: the S3 view's GetBucketCors and preflights,
 * and the public hosts (api.public) serving the bucket's objects.
 */
import { GetBucketCorsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Api } from '../../lib/s3.js';
import { sdk } from '../s3/support.js';
import { startWrangler, WRANGLER_TIMEOUT, type WranglerHarness } from '../helpers/wrangler.js';

const APP = 'http://localhost:5173';
let w: WranglerHarness;
let s3: S3Api;

beforeAll(async () => {
  w = await startWrangler({ zones: [{ name: 'example.com' }], buckets: ['photos'] });
  await w.api.account.bucket('photos')!.put('cat.txt', 'meow', { httpMetadata: { contentType: 'text/plain' } });
  s3 = new S3Api({ account: w.api.account });
}, WRANGLER_TIMEOUT);

afterAll(() => w?.close());

const preflight = (origin: string) =>
  s3.fetch('https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com/photos/upload.png', {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
  });

describe('wrangler r2 bucket cors', () => {
  it(
    'set writes the policy the S3 view then applies; list shows it; delete removes it',
    async () => {
      const file = w.file('cors.json', {
        rules: [
          {
            allowed: { origins: [APP], methods: ['GET', 'PUT'], headers: ['content-type'] },
            exposeHeaders: ['ETag'],
            maxAgeSeconds: 3600,
          },
        ],
      });
      await w.ok('r2', 'bucket', 'cors', 'set', 'photos', '--file', file, '--force');
      const got = await sdk(s3.fetch).send(new GetBucketCorsCommand({ Bucket: 'photos' }));
      expect(got.CORSRules).toEqual([
        {
          AllowedOrigins: [APP],
          AllowedMethods: ['GET', 'PUT'],
          AllowedHeaders: ['content-type'],
          ExposeHeaders: ['ETag'],
          MaxAgeSeconds: 3600,
        },
      ]);
      expect((await preflight(APP)).headers.get('access-control-allow-origin')).toBe(APP);
      expect((await preflight('http://localhost:5174')).status).toBe(403);

      const list = await w.ok('r2', 'bucket', 'cors', 'list', 'photos');
      expect(list.stdout).toMatch(/allowed_origins:\s+http:\/\/localhost:5173/);
      expect(list.stdout).toMatch(/max_age_seconds:\s+3600/);

      await w.ok('r2', 'bucket', 'cors', 'delete', 'photos', '--force');
      await expect(sdk(s3.fetch).send(new GetBucketCorsCommand({ Bucket: 'photos' }))).rejects.toMatchObject({
        name: 'NoSuchCORSConfiguration',
      });
      expect((await preflight(APP)).status).toBe(403);
    },
    WRANGLER_TIMEOUT,
  );
});

describe('wrangler r2 bucket dev-url', () => {
  it(
    'enable makes the printed r2.dev URL serve the bucket; get reports it; disable stops it',
    async () => {
      const enabled = await w.ok('r2', 'bucket', 'dev-url', 'enable', 'photos', '--force');
      const url = /'(https:\/\/pub-[0-9a-f]{32}\.r2\.dev)'/.exec(enabled.stdout)?.[1];
      expect(url).toBe(`https://${w.api.public.managedDomain('photos')}`);
      const served = await w.api.public.fetch(`${url}/cat.txt`);
      expect([served.status, await served.text()]).toEqual([200, 'meow']);

      expect((await w.ok('r2', 'bucket', 'dev-url', 'get', 'photos')).stdout).toContain(
        `Public access is enabled at '${url}'`,
      );

      await w.ok('r2', 'bucket', 'dev-url', 'disable', 'photos', '--force');
      expect((await w.api.public.fetch(`${url}/cat.txt`)).status).toBe(404);
    },
    WRANGLER_TIMEOUT,
  );
});

describe('wrangler r2 bucket domain', () => {
  it(
    "add connects a domain of the account's zone that then serves the bucket; list shows it; remove disconnects it",
    async () => {
      const zoneId = w.api.zone('example.com')!.id;
      await w.ok(
        'r2',
        'bucket',
        'domain',
        'add',
        'photos',
        '--domain',
        'cdn.example.com',
        '--zone-id',
        zoneId,
        '--min-tls',
        '1.2',
        '--force',
      );
      const served = await w.api.public.fetch('https://cdn.example.com/cat.txt');
      expect([served.status, await served.text()]).toEqual([200, 'meow']);

      const list = await w.ok('r2', 'bucket', 'domain', 'list', 'photos');
      expect(list.stdout).toMatch(/domain:\s+cdn\.example\.com/);
      expect(list.stdout).toMatch(/min_tls_version:\s+1\.2/);
      expect(list.stdout).toMatch(/zone_name:\s+example\.com/);

      // A domain outside the account's zones is refused with the API's error, which wrangler prints.
      const outside = await w.run(
        'r2',
        'bucket',
        'domain',
        'add',
        'photos',
        '--domain',
        'cdn.elsewhere.net',
        '--zone-id',
        zoneId,
        '--force',
      );
      expect(outside.code).not.toBe(0);
      expect(outside.output).toContain('[code: 10040]');

      await w.ok('r2', 'bucket', 'domain', 'remove', 'photos', '--domain', 'cdn.example.com', '--force');
      expect((await w.api.public.fetch('https://cdn.example.com/cat.txt')).status).toBe(404);
    },
    WRANGLER_TIMEOUT,
  );
});
