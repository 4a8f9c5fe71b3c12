/**
 * The control plane, end to end: wrangler (a real `wrangler r2 bucket ...`, pointed at
 * `startApiServer` by its environment variables) creates and configures a bucket; the Worker's
 * binding, made by `createEnv(config, { api })` over the same account, sees the bucket and its
 * settings; `wrangler r2 bucket info` then counts what the Worker wrote.
 */
// README: control-plane
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEnv } from 'edge-doubles';
import { startApiServer } from 'edge-doubles/node';
import worker, { type Env } from './worker.js'; // examples/control-plane/worker.ts: PUT /<key> stores the body

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer(); // the /client/v4 double on 127.0.0.1, a new account
});
afterAll(() => server.close());

// The project's own wrangler (a dev dependency), run with this Node: `npx wrangler` would do, slower.
const WRANGLER = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');

/** `wrangler <args>` against the double: its base URL, its account, any token, never prompting. */
async function wrangler(...args: string[]): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'wrangler-home-'));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: home,
    CI: 'true',
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_API_BASE_URL: server.baseURL,
    CLOUDFLARE_ACCOUNT_ID: server.api.account.id,
    CLOUDFLARE_API_TOKEN: 'any-token',
  };
  const { stdout } = await promisify(execFile)(process.execPath, [WRANGLER, ...args], { cwd: home, env });
  return stdout;
}

const config = { compatibility_date: '2025-01-01', r2_buckets: [{ binding: 'UPLOADS', bucket_name: 'uploads' }] };

it('wrangler makes the bucket; the Worker writes to it with the storage class wrangler set', async () => {
  await wrangler('r2', 'bucket', 'create', 'uploads', '--storage-class', 'InfrequentAccess');

  const { env } = createEnv<Env>(config, { api: server.api });
  const res = await worker.fetch(
    new Request('https://app.example/photo.jpg', { method: 'PUT', body: 'jpeg bytes' }),
    env,
  );
  expect(await res.json()).toEqual({ key: 'photo.jpg', storageClass: 'InfrequentAccess' });

  const info = JSON.parse(await wrangler('r2', 'bucket', 'info', 'uploads', '--json'));
  expect(info).toMatchObject({ name: 'uploads', default_storage_class: 'InfrequentAccess', object_count: '1' });
}, 60_000);
// README: end
