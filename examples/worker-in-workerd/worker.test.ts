/**
 * examples/worker's files Worker, tested inside workerd by @cloudflare/vitest-plugin, with its R2
 * binding swapped for an edge-doubles `Bucket`. The `env` of `cloudflare:test` (the same object as
 * `cloudflare:workers`' `env`) is writable and is the env the Worker gets, through direct calls
 * and through `exports.default.fetch()` (SELF) alike.
 */
import { exports } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Bucket } from 'edge-doubles';
import worker, { type Env } from '../worker/worker.js';

// README: workerd-swap
import { env } from 'cloudflare:test';
import { createEnv, parseWranglerConfig, useDoubles } from 'edge-doubles';
import wranglerToml from './wrangler.toml?raw'; // no file system inside workerd: the config comes in as text

const config = parseWranglerConfig(wranglerToml, 'wrangler.toml');
beforeEach(() => useDoubles(env, createEnv(config).env)); // a fresh double per test, the real binding back after it
// README: end

const self = (path: string, init?: RequestInit) => exports.default.fetch(`https://files.example${path}`, init);
// cloudflare:test's createExecutionContext / waitOnExecutionContext: edge-doubles exports the same
// two for plain Vitest (examples/worker), so a call like this one reads the same in both.
const direct = async (path: string, init?: RequestInit) => {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`https://files.example${path}`, init), env as unknown as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};

describe('the swap', () => {
  it('reaches the Worker called directly and through SELF: one double', async () => {
    expect(env.FILES).toBeInstanceOf(Bucket);
    await self('/a.txt', { method: 'PUT', body: 'via SELF', headers: { 'content-type': 'text/plain' } });
    const object = await (env.FILES as Bucket).get('a.txt');
    expect(await object!.text()).toBe('via SELF');
    expect(await (await direct('/a.txt')).text()).toBe('via SELF');
  });

  it('gives each test a fresh bucket', async () => {
    expect(await (env.FILES as Bucket).head('a.txt')).toBeNull();
  });

  it('useDoubles returns the function that puts the previous value back', () => {
    const before = env.FILES;
    const restore = useDoubles(env, { FILES: new Bucket(), EXTRA: new Bucket() });
    expect(env.FILES).not.toBe(before);
    restore();
    expect(env.FILES).toBe(before);
    expect('EXTRA' in env).toBe(false);
  });
});

// After every test's cleanup, the plugin's own binding is back.
afterAll(() => {
  expect((env.FILES as object).constructor.name).toBe('R2Bucket');
  expect(env.FILES).not.toBeInstanceOf(Bucket);
});

describe('the files Worker through SELF', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stores a file with its content type and serves it back', async () => {
    expect(
      (await self('/notes/a.txt', { method: 'PUT', body: 'hello world', headers: { 'content-type': 'text/plain' } }))
        .status,
    ).toBe(201);
    const got = await self('/notes/a.txt');
    expect(got.headers.get('content-type')).toBe('text/plain');
    expect(await got.text()).toBe('hello world');
  });

  it('answers 304 to If-None-Match with the current etag', async () => {
    const etag = (await self('/a', { method: 'PUT', body: 'v1' })).headers.get('etag')!;
    expect((await self('/a', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('serves a byte range with 206', async () => {
    await self('/a', { method: 'PUT', body: '0123456789' });
    const res = await self('/a', { headers: { range: 'bytes=2-4' } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('234');
  });

  it('refuses to overwrite when If-Match does not hold', async () => {
    await self('/a', { method: 'PUT', body: 'v1' });
    expect((await self('/a', { method: 'PUT', body: 'v2', headers: { 'if-match': '"not-the-etag"' } })).status).toBe(
      412,
    );
    expect(await (await self('/a')).text()).toBe('v1');
  });

  it('an upload left for 7 days is gone (fake timers move the double inside workerd too)', async () => {
    vi.useFakeTimers();
    const { uploadId } = (await (await self('/big?uploads', { method: 'POST' })).json()) as { uploadId: string };
    vi.advanceTimersByTime(7 * 24 * 60 * 60 * 1000);
    const late = await self(`/big?uploadId=${uploadId}&partNumber=1`, { method: 'POST', body: 'late' });
    expect(late.status).toBe(404);
    expect(await late.text()).toBe('uploadPart: The specified multipart upload does not exist. (10024)');
  });
});
