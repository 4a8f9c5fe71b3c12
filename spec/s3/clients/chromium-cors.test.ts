/**
 * The CORS policy proved in a real browser (Debian's `chromium`, driven by playwright): a page on an
 * allowed origin uploads to a presigned URL of `edge-doubles r2 serve` and succeeds; a page on
 * another origin tries the same and Chromium refuses it (its fetch rejects with a TypeError in the
 * page), because the server's answer to the preflight allows only the policy's origins. Nothing here
 * inspects CORS headers: the browser decides, and the upload's effect is read back through S3.
 *
 * The policy comes from `--cors-origin`, the shortcut that writes one (lib/node/commands.ts): a
 * server started without it has no policy, and then every origin is refused. The last test reads a
 * public bucket at its custom domain (served by `api serve`, Chromium resolving the domain to
 * loopback) under a policy set through the API: the same policy decides public reads.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import { chromium, type Browser } from 'playwright';
import { runCli, type CliIo } from '../../../lib/node/commands.js';
import { startApiServer } from '../../../lib/node/account-server.js';
import { debianCommand } from '../../helpers/debian-command.js';

const browserPath = process.env.EDGE_DOUBLES_CHROMIUM ?? debianCommand('chromium', 'chromium');
const signer = new AwsClient({
  accessKeyId: 'AKIDEXAMPLE0123456789',
  secretAccessKey: 'secret0123456789secret0123456789',
  service: 's3',
  region: 'auto',
});

/** A small HTTP server whose only page is an empty document: the origin a test's page runs on. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** `edge-doubles r2 serve` in process (as spec/s3/server.test.ts runs it), stopped by `stop`. */
async function r2Serve(args: string[]) {
  const out: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
  const running = runCli(['r2', 'serve', '--port', '0', '--bucket', 'photos', ...args], io);
  for (let i = 0; i < 500 && out.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  const endpoint = /listening on (\S+)/.exec(out[0] ?? '')?.[1];
  if (!endpoint) throw new Error(`r2 serve did not start: ${out.join('\n')}`);
  return { endpoint, close: async () => (stop(), await running) };
}

/** What the page's own fetch of a presigned PUT did: its status, or the error it rejected with. */
async function uploadFromPage(browser: Browser, pageOrigin: string, url: string, body: string) {
  const page = await browser.newPage();
  try {
    await page.goto(`${pageOrigin}/`);
    return await page.evaluate(
      async ({ url, body }) => {
        try {
          const res = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'text/plain' } });
          return { status: res.status };
        } catch (e) {
          return { error: (e as Error).name };
        }
      },
      { url, body },
    );
  } finally {
    await page.close();
  }
}

const presignedPut = async (endpoint: string, key: string) =>
  (await signer.sign(`${endpoint}/photos/${key}?X-Amz-Expires=600`, { method: 'PUT', aws: { signQuery: true } })).url;

const readBack = async (endpoint: string, key: string) => {
  const res = await fetch(await signer.sign(`${endpoint}/photos/${key}`));
  return res.status === 200 ? res.text() : res.status;
};

describe.skipIf(!browserPath)(
  `Chromium${browserPath ? '' : ' skipped: install the Debian package chromium'}: a presigned upload is let through or refused by the bucket's CORS policy`,
  () => {
    let browser: Browser;
    let allowed: { server: Server; origin: string };
    let other: { server: Server; origin: string };

    beforeAll(async () => {
      // The public bucket's custom domain resolves to loopback, where `api serve` answers it by Host (no
      // DNS, no network). Not an r2.dev host: .dev is HSTS-preloaded, so Chromium would ask for https.
      browser = await chromium.launch({
        executablePath: browserPath!,
        args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP cdn.example.com 127.0.0.1'],
      });
      allowed = await pageServer();
      other = await pageServer();
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
      for (const s of [allowed, other]) await new Promise((r) => s?.server.close(r));
    });

    it('--cors-origin: the allowed origin uploads; another origin (another port) is refused by the browser and writes nothing', async () => {
      const serve = await r2Serve(['--cors-origin', allowed.origin]);
      try {
        const ok = await uploadFromPage(
          browser,
          allowed.origin,
          await presignedPut(serve.endpoint, 'ok.txt'),
          'from the app',
        );
        expect(ok).toEqual({ status: 200 });
        expect(await readBack(serve.endpoint, 'ok.txt')).toBe('from the app');

        const refused = await uploadFromPage(
          browser,
          other.origin,
          await presignedPut(serve.endpoint, 'evil.txt'),
          'from elsewhere',
        );
        expect(refused).toEqual({ error: 'TypeError' });
        expect(await readBack(serve.endpoint, 'evil.txt')).toBe(404);
      } finally {
        await serve.close();
      }
    }, 30_000);

    it('without a policy every origin is refused (no allow-everything default)', async () => {
      const serve = await r2Serve([]);
      try {
        const refused = await uploadFromPage(browser, allowed.origin, await presignedPut(serve.endpoint, 'k.txt'), 'x');
        expect(refused).toEqual({ error: 'TypeError' });
        expect(await readBack(serve.endpoint, 'k.txt')).toBe(404);
      } finally {
        await serve.close();
      }
    }, 30_000);

    it('a public bucket (a custom domain, over api serve): the policy set through the API lets the allowed origin read, and the browser refuses the other', async () => {
      const server = await startApiServer({ zones: [{ name: 'example.com' }], buckets: ['photos'] });
      try {
        const { api } = server;
        await api.account.bucket('photos')!.put('cat.txt', 'meow');
        const call = (path: string, body: unknown, method = 'PUT') =>
          api.fetch(`https://api.cloudflare.com/client/v4/accounts/${api.account.id}/r2/buckets/photos/${path}`, {
            method,
            headers: { authorization: 'Bearer any-token-0123456789', 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        expect(
          (
            await call(
              'domains/custom',
              { domain: 'cdn.example.com', zoneId: api.zone('example.com')!.id, enabled: true },
              'POST',
            )
          ).status,
        ).toBe(200);
        expect(
          (await call('cors', { rules: [{ allowed: { origins: [allowed.origin], methods: ['GET'] } }] })).status,
        ).toBe(200);
        const url = `http://cdn.example.com:${new URL(server.baseURL).port}/cat.txt`;
        const read = async (origin: string) => {
          const page = await browser.newPage();
          try {
            await page.goto(`${origin}/`);
            return await page.evaluate(async (u) => {
              try {
                const res = await fetch(u);
                return { status: res.status, body: await res.text() };
              } catch (e) {
                return { error: (e as Error).name };
              }
            }, url);
          } finally {
            await page.close();
          }
        };
        expect(await read(allowed.origin)).toEqual({ status: 200, body: 'meow' });
        expect(await read(other.origin)).toEqual({ error: 'TypeError' });
      } finally {
        await server.close();
      }
    }, 30_000);
  },
);
