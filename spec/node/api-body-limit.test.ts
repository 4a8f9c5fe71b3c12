/**
 * The DNS API's body limits over real HTTP (issue 26, point 12): a body past the largest request a
 * route can accept is refused with the 413 before it is read, whether its length is declared or it
 * streams without one, and the answer reaches a client that is still sending (the server lingers
 * before it closes: lib/node/server.ts). In process: spec/dns/request-body.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsApiServer } from '../../lib/node/index.js';
import { recordBodyLimit } from '../../lib/dns/routes.js';
import { parseResponses, rawConnection } from './raw-http.js';

const TOKEN = 'body-limit-token';
let server: Awaited<ReturnType<typeof startDnsApiServer>>;
let zoneId: string;

beforeAll(async () => {
  server = await startDnsApiServer({
    port: 0,
    zones: [{ name: 'example.com', plan: 'free' }],
    credentials: [{ token: TOKEN }],
  });
  zoneId = server.api.zones[0]!.id;
});
afterAll(() => server.close());

const head = (extra: string) =>
  `POST /client/v4/zones/${zoneId}/dns_records HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe('the DNS API server bounds request bodies by route', () => {
  it('a declared 60 MB body is answered 413 from its headers alone, and the connection closes', async () => {
    const c = rawConnection(server.port);
    await c.write(head('Content-Length: 60000000\r\n'));
    const [res] = parseResponses(await c.read());
    c.close();
    expect(res!.status).toBe(413);
    expect(res!.body).toContain('413 Request Entity Too Large');
    expect(server.api.records(zoneId)).toEqual([]);
  });

  it("a chunked body without a length is refused once it passes a record's bound, long before 60 MB is sent", async () => {
    const c = rawConnection(server.port);
    await c.write(head('Transfer-Encoding: chunked\r\n'));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    let sent = 0;
    let answered: string;
    // Keep sending, as a client streaming 60 MB would, until the server answers or stops reading.
    while (sent < 60_000_000 && !c.closed) {
      await Promise.race([c.write(frame), new Promise((r) => setTimeout(r, 200))]);
      sent += frame.length;
      if (sent % (1024 * 1024) < frame.length) {
        answered = await c.read(20);
        if (answered.includes('HTTP/1.1')) break;
      }
    }
    answered = await c.read();
    c.close();
    const [res] = parseResponses(answered);
    // Without a lingering close the server's reset could drop the answer before the client read it.
    expect(res?.status, `sent ${sent} bytes; received ${JSON.stringify(answered.slice(0, 80))}`).toBe(413);
    // The bound is 64 KiB; socket buffers let a client write some MiB more before it notices.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    expect(recordBodyLimit({ records: 200, tags: 0, commentLength: 100, batch: 200, minTtl: 60 })).toBe(64 * 1024);
  });

  it('a body within the bound is read and judged as usual', async () => {
    const body = JSON.stringify({ type: 'A', name: 'www', content: '192.0.2.1', comment: 'c'.repeat(30_000) });
    const res = await fetch(`${server.baseURL}/zones/${zoneId}/dns_records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe(9302);
  });
});
