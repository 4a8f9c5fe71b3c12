/**
 * Public hosts over HTTP: a server over an account (startS3Server({ account })) answers a request
 * whose Host is an enabled r2.dev or custom domain as that public host, and every other request as
 * the S3 view (or, for `api serve`, the API), as the edge routes by host. curl's `--resolve`, or a
 * Host header, reaches them.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';
import { startS3Server } from '../../lib/node/index.js';
import { startApiServer } from '../../lib/node/account-server.js';

/** GET `path` on 127.0.0.1:`port` with the Host header given (what a client resolving the host to loopback sends). */
function getWithHost(
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; body: string; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), type: res.headers['content-type'] }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('public hosts, by Host header, on a server over an account', () => {
  it("an enabled r2.dev host and custom domain serve the bucket; disabled hosts and the server's own host go to the S3 view", async () => {
    const api = new CloudflareApi({ zones: [{ name: 'example.com' }] });
    const photos = api.account.addBucket('photos', new Bucket());
    await photos.put('cat.txt', 'meow');
    const server = await startS3Server({ account: api.account });
    close = () => server.close();
    const port = Number(new URL(server.endpoint).port);
    const dev = api.public.managedDomain('photos');

    // r2.dev still off: the Host is not public, so the S3 view answers (unsigned: an S3 error).
    const before = await getWithHost(port, dev, '/cat.txt');
    expect(before.body).toContain('<Error>');

    const call = (path: string, method: string, body: unknown) =>
      api.fetch(`https://api.cloudflare.com/client/v4/accounts/${api.account.id}/r2/buckets/photos/${path}`, {
        method,
        headers: { authorization: 'Bearer any-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await call('domains/managed', 'PUT', { enabled: true })).status).toBe(200);
    expect(
      (
        await call('domains/custom', 'POST', {
          domain: 'cdn.example.com',
          zoneId: api.zone('example.com')!.id,
          enabled: true,
        })
      ).status,
    ).toBe(200);

    expect(await getWithHost(port, dev, '/cat.txt')).toEqual({
      status: 200,
      body: 'meow',
      type: 'application/octet-stream',
    });
    expect(await getWithHost(port, `${dev}:${port}`, '/cat.txt')).toMatchObject({ status: 200, body: 'meow' });
    expect(await getWithHost(port, 'cdn.example.com', '/cat.txt')).toMatchObject({ status: 200, body: 'meow' });
    expect(await getWithHost(port, 'cdn.example.com', '/none')).toEqual({
      status: 404,
      body: '404 Not Found',
      type: 'text/plain; charset=UTF-8',
    });
    expect((await getWithHost(port, `127.0.0.1:${port}`, '/photos/cat.txt')).body).toContain('<Error>');
  });

  it("api serve (startApiServer) answers the account's public hosts by Host on its one port; every other Host is the API", async () => {
    const server = await startApiServer({ zones: [{ name: 'example.com' }], buckets: ['photos'] });
    close = () => server.close();
    const api = server.api;
    await api.account.bucket('photos')!.put('cat.txt', 'meow');
    const port = Number(new URL(server.baseURL).port);
    const dev = api.public.managedDomain('photos');
    // Not enabled yet: the Host is no public host, so the API answers (its route error, in its envelope).
    expect((await getWithHost(port, dev, '/cat.txt')).type).toBe('application/json');
    const res = await fetch(`${server.baseURL}/accounts/${api.account.id}/r2/buckets/photos/domains/managed`, {
      method: 'PUT',
      headers: { authorization: 'Bearer any-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true }),
    });
    expect(res.status).toBe(200);
    expect(await getWithHost(port, `${dev}:${port}`, '/cat.txt')).toEqual({
      status: 200,
      body: 'meow',
      type: 'application/octet-stream',
    });
    expect((await getWithHost(port, `127.0.0.1:${port}`, '/cat.txt')).type).toBe('application/json');
  });

  // RFC 9112 §3.2.2: with an absolute-form target (what a client sends through a proxy), the server
  // ignores Host and takes the target's authority. r2 serve did; api serve routed by the Host header.
  it.each([
    ['r2 serve (startS3Server)', (api: CloudflareApi) => startS3Server({ account: api.account })],
    ['api serve (startApiServer)', (api: CloudflareApi) => startApiServer({ api })],
  ])('%s routes an absolute-form request by its target, not by Host', async (_name, start) => {
    const api = new CloudflareApi();
    await api.account.addBucket('photos', new Bucket()).put('cat.txt', 'meow');
    const dev = api.public.setManagedDomain('photos', true);
    const server = await start(api);
    close = () => server.close();
    expect(await getWithHost(server.port, `127.0.0.1:${server.port}`, `http://${dev}/cat.txt`)).toEqual({
      status: 200,
      body: 'meow',
      type: 'application/octet-stream',
    });
    // And the other way: Host names the public host, the target the server itself.
    const own = await getWithHost(server.port, dev, `http://127.0.0.1:${server.port}/cat.txt`);
    expect(own.status).not.toBe(200);
  });
});
