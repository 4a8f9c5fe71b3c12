/**
 * The bucket options `r2 serve` and `api serve` share, through the CLI (runCli in process):
 * `--public-bucket NAME` enables the bucket's r2.dev domain, and the server then answers that Host
 * as R2's public endpoint (issue 18 point 6: "from r2 serve/api serve by Host header");
 * `--lifecycle-timing exact|daily` decides when the buckets' lifecycle rules act.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { AwsClient } from 'aws4fetch';
import { runCli, type CliIo } from '../../lib/node/commands.js';
import { managedDomainOf } from '../../lib/r2-public/public-buckets.js';
import { CREDENTIALS, sdk } from '../s3/support.js';

const ACCOUNT = 'a'.repeat(32);

/** Runs `edge-doubles <args>` in process until `stop()`; `out` collects its lines. */
async function serve(args: string[], lines: number) {
  const out: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
  const running = runCli(args, io);
  for (let i = 0; i < 500 && out.length < lines; i++) await new Promise((r) => setTimeout(r, 10));
  if (out.length < lines) throw new Error(`the server printed only:\n${out.join('\n')}`);
  const origin = new URL(/listening on (\S+)/.exec(out[0]!)![1]!).origin;
  const close = async () => {
    stop();
    expect(await running).toBe(0);
  };
  return { out, origin, port: Number(new URL(origin).port), close };
}

let running: { close(): Promise<void> } | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await running?.close();
  running = undefined;
});

/** `method path` on 127.0.0.1:`port` with the Host header given (what curl --resolve sends). */
function withHost(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers: { ...headers, host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), headers: res.headers }),
        );
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

/**
 * A signed S3 request to `host` (the server's own `127.0.0.1:PORT`, or R2's S3 name for the account
 * on `api serve`'s port), sent to 127.0.0.1. aws4fetch signs with `Date` as it is (faked below), as
 * the servers check it; the AWS SDK would correct its clock from the real time in the answers' Date.
 */
async function s3(port: number, host: string, method: string, path: string, body?: string) {
  const aws = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
  const signed = await aws.sign(`http://${host}${path}`, { method, ...(body !== undefined ? { body } : {}) });
  return withHost(port, host, path, Object.fromEntries(signed.headers), method, body);
}

describe('r2 serve --public-bucket', () => {
  it('prints the account and the r2.dev host; that Host gets the public answer, with CORS by the policy; other buckets stay private', async () => {
    const s = await serve(
      [
        'r2',
        'serve',
        '--port',
        '0',
        '--account',
        ACCOUNT,
        '--bucket',
        'private',
        '--public-bucket',
        'photos',
        '--cors-origin',
        'https://app.example',
      ],
      5,
    );
    running = s;
    const host = managedDomainOf(ACCOUNT, 'photos');
    expect(s.out.slice(1, 5)).toEqual([
      `account ${ACCOUNT}`,
      'bucket private',
      'bucket photos',
      `public photos ${host}`,
    ]);

    const client = sdk(undefined, s.origin);
    await client.send(
      new PutObjectCommand({ Bucket: 'photos', Key: 'cats/tom.txt', Body: 'meow', ContentType: 'text/plain' }),
    );
    await client.send(new PutObjectCommand({ Bucket: 'private', Key: 'secret.txt', Body: 'hidden' }));

    const got = await withHost(s.port, `${host}:${s.port}`, '/cats/tom.txt', { origin: 'https://app.example' });
    expect([got.status, got.body, got.headers['content-type'], got.headers['access-control-allow-origin']]).toEqual([
      200,
      'meow',
      'text/plain',
      'https://app.example',
    ]);
    const head = await withHost(s.port, host, '/cats/tom.txt', {}, 'HEAD');
    expect([head.status, head.headers['content-length']]).toEqual([200, '4']);
    expect(await withHost(s.port, host, '/none')).toMatchObject({ status: 404, body: '404 Not Found' });

    // The private bucket's r2.dev host is not enabled: that Host is the S3 view's (unsigned: an S3 error).
    const closed = await withHost(s.port, managedDomainOf(ACCOUNT, 'private'), '/secret.txt');
    expect(closed.body).toContain('<Error>');
    expect(closed.body).not.toContain('hidden');
  });

  it('alone makes the bucket; a name R2 refuses is refused before the server listens', async () => {
    const s = await serve(['r2', 'serve', '--port', '0', '--public-bucket', 'solo'], 4);
    running = s;
    const account = /^account ([0-9a-f]{32})$/.exec(s.out[1]!)![1]!;
    expect(s.out.slice(2, 4)).toEqual(['bucket solo', `public solo ${managedDomainOf(account, 'solo')}`]);
    const io: CliIo = { out: () => {}, err: () => {}, stopped: () => Promise.resolve() };
    await expect(runCli(['r2', 'serve', '--port', '0', '--public-bucket', 'Bad_Name'], io)).rejects.toThrow(
      'is invalid',
    );
  });
});

describe('api serve --public-bucket', () => {
  it("enables the bucket's r2.dev host, which the API then reports enabled and the server answers by Host", async () => {
    const s = await serve(['api', 'serve', '--port', '0', '--account', ACCOUNT, '--public-bucket', 'photos'], 5);
    running = s;
    const host = managedDomainOf(ACCOUNT, 'photos');
    expect(s.out).toContain(`public photos ${host}`);
    const base = `${s.origin}/client/v4/accounts/${ACCOUNT}/r2/buckets/photos`;
    const managed = await (
      await fetch(`${base}/domains/managed`, { headers: { authorization: 'Bearer any-token' } })
    ).json();
    expect(managed.result).toMatchObject({ domain: host, enabled: true });
    expect((await s3(s.port, `${ACCOUNT}.r2.cloudflarestorage.com`, 'PUT', '/photos/hello.txt', 'hi')).status).toBe(
      200,
    );
    expect(await withHost(s.port, host, '/hello.txt')).toMatchObject({ status: 200, body: 'hi' });
  });
});

describe('--lifecycle-timing', () => {
  // Only Date is faked: the servers' sockets and timers stay real; the buckets read the time from Date.now.
  const T0 = Date.UTC(2030, 0, 1, 10);
  const DAY = 86_400_000;

  for (const timing of ['exact', 'daily'] as const) {
    it(`r2 serve --lifecycle-timing ${timing}: a 1-day expiry acts ${timing === 'exact' ? 'a day after the upload' : 'at the next 00:00 UTC after that'}`, async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(T0);
      const s = await serve(['r2', 'serve', '--port', '0', '--bucket', 'logs', '--lifecycle-timing', timing], 3);
      running = s;
      const self = `127.0.0.1:${s.port}`;
      expect((await s3(s.port, self, 'PUT', '/logs/old.log', 'x')).status).toBe(200);
      const xml =
        '<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><ID>expire</ID><Status>Enabled</Status>' +
        '<Filter><Prefix></Prefix></Filter><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>';
      const put = await s3(s.port, self, 'PUT', '/logs?lifecycle', xml);
      expect(put.status, put.body).toBe(200);
      // Whether the object is still there, by a signed HeadObject.
      const head = async () => {
        const { status } = await s3(s.port, self, 'HEAD', '/logs/old.log');
        expect([200, 404]).toContain(status);
        return status === 200;
      };
      vi.setSystemTime(T0 + DAY + 60_000);
      expect(await head()).toBe(timing === 'daily');
      vi.setSystemTime(Date.UTC(2030, 0, 3) + 1_000);
      expect(await head()).toBe(false);
    });
  }

  it('api serve --lifecycle-timing daily: the buckets it makes act at 00:00 UTC; a bad value is refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const s = await serve(
      ['api', 'serve', '--port', '0', '--account', ACCOUNT, '--bucket', 'logs', '--lifecycle-timing', 'daily'],
      4,
    );
    running = s;
    const base = `${s.origin}/client/v4/accounts/${ACCOUNT}/r2/buckets/logs`;
    const auth = { authorization: 'Bearer any-token' };
    // R2's S3 name for the account, on the same port, is the S3 view over the same buckets.
    const s3Host = `${ACCOUNT}.r2.cloudflarestorage.com:${s.port}`;
    expect((await s3(s.port, s3Host, 'PUT', '/logs/old.log', 'x')).status).toBe(200);
    const rules = {
      rules: [
        {
          id: 'expire',
          enabled: true,
          conditions: { prefix: '' },
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
        },
      ],
    };
    expect(
      (
        await fetch(`${base}/lifecycle`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(rules),
        })
      ).status,
    ).toBe(200);
    const status = async () => (await s3(s.port, s3Host, 'HEAD', '/logs/old.log')).status;
    vi.setSystemTime(T0 + DAY + 60_000);
    expect(await status()).toBe(200);
    vi.setSystemTime(Date.UTC(2030, 0, 3) + 1_000);
    expect(await status()).toBe(404);

    const io: CliIo = { out: () => {}, err: () => {}, stopped: () => Promise.resolve() };
    await expect(runCli(['api', 'serve', '--lifecycle-timing', 'hourly'], io)).rejects.toThrow(
      '--lifecycle-timing must be exact or daily, got hourly',
    );
    await expect(runCli(['r2', 'serve', '--bucket', 'a', '--lifecycle-timing', 'hourly'], io)).rejects.toThrow(
      '--lifecycle-timing must be exact or daily, got hourly',
    );
  });
});
