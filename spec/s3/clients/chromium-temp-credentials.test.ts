/**
 * Issue 28's done-when for temporary credentials, in a real browser (Debian's `chromium`, driven by
 * playwright as spec/s3/clients/chromium-cors.test.ts does): an app server mints credentials scoped
 * to one prefix through `api serve` (the `cloudflare` SDK aimed at the server), hands them to a page,
 * and the page signs its own upload with them (aws4fetch, loaded into the page) to R2's S3 host
 * name for the account, which Chromium resolves to the server. Inside the prefix the upload lands
 * (read back through the binding's bucket); outside it the page reads R2's 403 and nothing is written.
 */
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright';
import { startApiServer } from '../../../lib/node/account-server.js';
import { debianCommand } from '../../helpers/debian-command.js';

const browserPath = process.env.EDGE_DOUBLES_CHROMIUM ?? debianCommand('chromium', 'chromium');
// The package's browser build (its exports name only the module entries; the UMD file sits beside them).
const aws4fetchScript = join(dirname(createRequire(import.meta.url).resolve('aws4fetch')), 'aws4fetch.umd.js');
const PARENT = { accessKeyId: '0123456789abcdef0123456789abcdef', secretAccessKey: 'f'.repeat(64) };

describe.skipIf(!browserPath)(
  `Chromium${browserPath ? '' : ' skipped: install the Debian package chromium'}: a browser upload with temporary credentials`,
  () => {
    let browser: Browser;
    let app: { server: Server; origin: string };

    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: browserPath!,
        args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP *.r2.cloudflarestorage.com 127.0.0.1'],
      });
      const server = createServer((_, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'),
      );
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      app = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((r) => app?.server.close(r));
    });

    it('minted through api serve for uploads/alice/: the page uploads there, and is refused (403) outside it', async () => {
      const served = await startApiServer({ buckets: ['photos'], s3Credentials: [PARENT] });
      try {
        const account_id = served.api.account.id;
        const cf = new Cloudflare({
          apiToken: 'any-token-0123456789',
          apiKey: null,
          apiEmail: null,
          baseURL: served.baseURL,
          maxRetries: 0,
        });
        await cf.r2.buckets.cors.update('photos', {
          account_id,
          rules: [{ allowed: { origins: [app.origin], methods: ['PUT'], headers: ['*'] } }],
        });
        const credentials = await cf.r2.temporaryCredentials.create({
          account_id,
          bucket: 'photos',
          parentAccessKeyId: PARENT.accessKeyId,
          permission: 'object-read-write',
          ttlSeconds: 600,
          prefixes: ['uploads/alice/'],
        });
        const endpoint = `http://${account_id}.r2.cloudflarestorage.com:${served.port}/photos`;

        const page = await browser.newPage();
        await page.goto(`${app.origin}/`);
        await page.addScriptTag({ path: aws4fetchScript });
        const upload = (key: string, body: string) =>
          page.evaluate(
            async ({ url, body, credentials }) => {
              const client = new (
                globalThis as unknown as { aws4fetch: typeof import('aws4fetch') }
              ).aws4fetch.AwsClient({ ...credentials, service: 's3', region: 'auto' });
              try {
                const res = await client.fetch(url, { method: 'PUT', body, headers: { 'content-type': 'text/plain' } });
                return { status: res.status, code: /<Code>(\w+)</.exec(await res.text())?.[1] };
              } catch (e) {
                return { error: (e as Error).name };
              }
            },
            {
              url: `${endpoint}/${key}`,
              body,
              credentials: credentials as { accessKeyId: string; secretAccessKey: string; sessionToken: string },
            },
          );

        expect(await upload('uploads/alice/cat.txt', 'from the page')).toEqual({ status: 200 });
        expect(await (await served.api.account.bucket('photos')!.get('uploads/alice/cat.txt'))!.text()).toBe(
          'from the page',
        );

        expect(await upload('uploads/bob/cat.txt', 'not mine')).toEqual({ status: 403, code: 'AccessDenied' });
        expect(await served.api.account.bucket('photos')!.head('uploads/bob/cat.txt')).toBeNull();
        await page.close();
      } finally {
        await served.close();
      }
    }, 30_000);
  },
);
