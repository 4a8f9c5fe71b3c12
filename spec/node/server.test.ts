/**
 * serveHandler, the one HTTP server every surface runs in: what reaches the handler is what the
 * client sent, a body is read only when the handler asks, and the connection behaves as a real
 * server's does for the bytes real clients send (NUL padding, pipelining, Expect, bad Hosts).
 */
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHandler, type RunningServer } from '../../lib/node/index.js';
import { parseResponses, rawConnection, rawRequest } from './raw-http.js';

/** Echoes what the handler was given; reads the body only for POST (PUT is refused unread, as an unauthenticated write is). */
async function echo(request: Request, target: string): Promise<Response> {
  if (request.method === 'PUT') return new Response('refused', { status: 403 });
  const body = request.method === 'POST' ? await request.text() : '';
  return Response.json({ target, url: request.url, method: request.method, body });
}

const malformed = (reason: string) =>
  new Response(`surface says: ${reason}`, { status: 400, headers: { 'x-surface': 'yes' } });

describe('serveHandler over plain HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serveHandler(echo, { malformed });
  });
  afterAll(() => server.close());

  it.each(['/photos/tmp/../keep/1.txt', '/photos/tmp/%2e%2e/keep/1.txt', '/photos/a\\b', '//other.example/x?y=1'])(
    'passes the request-target %s exactly as sent, and keeps the Host the client named',
    async (target) => {
      const [res] = await rawRequest(
        server.port,
        `GET ${target} HTTP/1.1\r\nHost: photos.local:9\r\nConnection: close\r\n\r\n`,
      );
      const seen = JSON.parse(res!.body);
      expect(seen.target).toBe(target);
      expect(new URL(seen.url).host).toBe('photos.local:9');
    },
  );

  it.each([
    ['an unclosed bracket', 'Host: [\r\n'],
    ['a space', 'Host: a b\r\n'],
    ['an empty value', 'Host: \r\n'],
    ['a path', 'Host: a/b\r\n'],
    ['no Host at all (HTTP/1.1)', ''],
    ['two Host headers', 'Host: a\r\nHost: b\r\n'],
  ])('a Host header with %s gets the surface’s 400 and the connection closes', async (_what, hostLines) => {
    const c = rawConnection(server.port);
    await c.write(`GET /x HTTP/1.1\r\n${hostLines}\r\n`);
    const [res, ...more] = parseResponses(await c.read());
    expect([res!.status, res!.headers['x-surface'], res!.headers['connection']]).toEqual([400, 'yes', 'close']);
    expect(res!.body).toMatch(/^surface says: /);
    expect(more).toEqual([]);
    expect(c.closed).toBe(true);
  });

  it('HTTP/1.0 may leave Host out: the listening address stands in', async () => {
    const [res] = await rawRequest(server.port, 'GET /old HTTP/1.0\r\n\r\n');
    expect(res!.status).toBe(200);
    expect(JSON.parse(res!.body).url).toBe(`http://127.0.0.1:${server.port}/old`);
  });

  it('a request followed by 8 KiB of NUL padding (a DDNS client) gets its 200, then the connection closes', async () => {
    const request = Buffer.from(`GET /nic/update?ip=1 HTTP/1.1\r\nHost: h\r\n\r\n`);
    const c = rawConnection(server.port);
    await c.write(Buffer.concat([request, Buffer.alloc(8192 - request.length)]));
    const responses = parseResponses(await c.read());
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(JSON.parse(responses[0]!.body).target).toBe('/nic/update?ip=1');
    expect(c.closed).toBe(true);
  });

  it('pipelined requests are all answered, in order, on one connection', async () => {
    const one = 'POST /one HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc';
    const two = 'GET /two HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n';
    const responses = await rawRequest(server.port, one + two);
    expect(responses.map((r) => [r.status, JSON.parse(r.body).target, JSON.parse(r.body).body])).toEqual([
      [200, '/one', 'abc'],
      [200, '/two', ''],
    ]);
  });

  it('bytes that are not a request get the surface’s 400 and a closed connection', async () => {
    const c = rawConnection(server.port);
    await c.write('\x16\x03\x01garbage that is not HTTP\r\n\r\n');
    const [res] = parseResponses(await c.read());
    expect([res!.status, res!.headers['x-surface']]).toEqual([400, 'yes']);
    expect(c.closed).toBe(true);
  });

  it('a handler that refuses before reading answers at once: a 200 MiB PUT is never read, and the connection closes', async () => {
    const c = rawConnection(server.port);
    // Only the head is sent: an answer can come only if the server did not wait for the body.
    await c.write(`PUT /photos/big HTTP/1.1\r\nHost: h\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n`);
    const [res] = parseResponses(await c.read());
    expect([res!.status, res!.body, res!.headers['connection']]).toEqual([403, 'refused', 'close']);
    expect(c.closed).toBe(true);
  });

  it('a small body left unread is thrown away and the connection serves the next request', async () => {
    const put = 'PUT /small HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789';
    const get = 'GET /after HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n';
    const c = rawConnection(server.port);
    await c.write(put);
    await c.read(100);
    await c.write(get);
    const responses = parseResponses(await c.read());
    expect(responses.map((r) => r.status)).toEqual([403, 200]);
    expect(responses[0]!.headers['connection']).not.toBe('close');
    expect(JSON.parse(responses[1]!.body).target).toBe('/after');
  });

  it('Expect: 100-continue gets an interim 100 by default, sent when the handler reads the body, then the answer', async () => {
    const c = rawConnection(server.port);
    await c.write(
      'POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n',
    );
    expect(await c.read(300)).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    await c.write('hi');
    const responses = parseResponses(await c.read());
    expect(responses.map((r) => r.status)).toEqual([100, 200]);
    expect(JSON.parse(responses[1]!.body).body).toBe('hi');
  });

  it('Expect: 100-continue on a request refused before its body is read gets the refusal, not 100, and the connection closes', async () => {
    const c = rawConnection(server.port);
    await c.write('PUT /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n');
    const text = await c.read();
    expect(text).not.toMatch(/^HTTP\/1\.1 100/);
    const [res] = parseResponses(text);
    expect([res!.status, res!.body, res!.headers['connection']]).toEqual([403, 'refused', 'close']);
    expect(c.closed).toBe(true);
  });
});

describe('serveHandler options', () => {
  it("expectContinue: 'silent' sends no interim 100 (Cloudflare's edge never does): the body sent after the wait is served", async () => {
    const server = await serveHandler(echo, { expectContinue: 'silent' });
    try {
      const c = rawConnection(server.port);
      await c.write(
        'POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n',
      );
      expect(await c.read(300)).toBe('');
      await c.write('hi');
      const text = await c.read();
      expect(text).not.toMatch(/^HTTP\/1\.1 100/);
      expect(JSON.parse(parseResponses(text)[0]!.body).body).toBe('hi');
    } finally {
      await server.close();
    }
  });

  it('failed: a handler that throws is answered in the surface’s format', async () => {
    const server = await serveHandler(() => Promise.reject(new Error('boom')), {
      failed: (e) => new Response(`own 500: ${(e as Error).message}`, { status: 500 }),
    });
    try {
      const [res] = await rawRequest(server.port, 'GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
      expect([res!.status, res!.body]).toEqual([500, 'own 500: boom']);
    } finally {
      await server.close();
    }
  });

  it('tls: true serves HTTPS with a certificate for 127.0.0.1 and localhost, signed by the CA it returns', async () => {
    const server = await serveHandler(echo, { tls: true });
    try {
      expect(server.origin).toBe(`https://127.0.0.1:${server.port}`);
      expect(server.ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
      for (const host of ['127.0.0.1', 'localhost']) {
        const body = await new Promise<string>((resolve, reject) => {
          const req = httpsRequest(
            {
              host,
              port: server.port,
              path: '/a/../b',
              ca: server.ca,
              servername: host === 'localhost' ? host : undefined,
            },
            (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c));
              res.on('end', () => resolve(text));
            },
          );
          req.on('error', reject);
          req.end();
        });
        expect(JSON.parse(body).target).toBe('/a/../b');
      }
      // Without the CA the certificate is refused: it is not self-signed trust-on-first-use.
      await expect(fetch(`${server.origin}/`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  }, 20_000);
});
