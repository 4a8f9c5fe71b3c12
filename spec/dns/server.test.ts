import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Cloudflare from 'cloudflare';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDnsApiServer, startDnsServer } from '../../lib/node/index.js';
import { runCli, type CliIo } from '../../lib/node/commands.js';
import { parseResponses, rawConnection, rawRequest } from '../node/raw-http.js';
import { schemaErrors } from './support.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('startDnsServer: the double over real HTTP on 127.0.0.1', () => {
  let server: Awaited<ReturnType<typeof startDnsServer>>;
  let zoneId: string;

  beforeAll(async () => {
    server = await startDnsServer({
      port: 0,
      zones: [{ name: 'example.com' }],
      credentials: [{ token: 'http-token' }],
    });
    zoneId = server.api.zone('example.com')!.id;
  });
  afterAll(() => server.close());

  it('without dnsPort is the REST API alone, as startDnsApiServer serves it (DNS on the wire: spec/dns/wire/)', async () => {
    expect(server.dnsPort).toBeUndefined();
    expect(server.baseURL).toBe(`http://127.0.0.1:${server.port}/client/v4`);
    const other = await startDnsApiServer({ port: 0 });
    try {
      expect(other.baseURL).toBe(`http://127.0.0.1:${other.port}/client/v4`);
    } finally {
      await other.close();
    }
  });

  it('Expect: 100-continue gets an interim 100 (Cloudflare never generates 1xx: a declared difference), then the answer', async () => {
    const body = JSON.stringify({ type: 'A', name: 'expect', content: '198.51.100.7', ttl: 1 });
    const c = rawConnection(server.port);
    try {
      await c.write(
        `POST /client/v4/zones/${zoneId}/dns_records HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer http-token\r\n` +
          `Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      expect(await c.read(300)).toBe('HTTP/1.1 100 Continue\r\n\r\n'); // the client need not wait
      await c.write(body);
      const [, res] = parseResponses(await c.read());
      expect(res!.status).toBe(200);
      expect(JSON.parse(res!.body).result.name).toBe('expect.example.com');
    } finally {
      c.close();
    }
  });

  it('binds to loopback on an ephemeral port', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.baseURL).toBe(`http://127.0.0.1:${server.port}/client/v4`);
  });

  it('the SDK drives it through the network with its own fetch', async () => {
    const client = new Cloudflare({
      apiToken: 'http-token',
      apiEmail: null,
      apiKey: null,
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    const rec = await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'net',
      content: '198.51.100.1',
      ttl: 1,
    });
    expect((await client.dns.records.get(rec.id, { zone_id: zoneId })).content).toBe('198.51.100.1');
    await expect(client.dns.records.get('0'.repeat(32), { zone_id: zoneId })).rejects.toMatchObject({ status: 404 });
  });

  it.each([['['], ['a b'], ['']])("a Host of %j gets a 400 in the API's JSON envelope, not a 500", async (host) => {
    const [res] = await rawRequest(
      server.port,
      `GET /client/v4/zones HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer http-token\r\n\r\n`,
    );
    expect(res!.status).toBe(400);
    expect(JSON.parse(res!.body)).toEqual({
      result: null,
      success: false,
      errors: [{ code: 6003, message: 'Invalid request headers' }],
      messages: [],
    });
  });

  it("a DDNS client's request padded with NULs to 8 KiB gets its answer, not Node's 400", async () => {
    const head = Buffer.from(
      `GET /client/v4/zones/${zoneId}/dns_records HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer http-token\r\n\r\n`,
    );
    const responses = await rawRequest(server.port, Buffer.concat([head, Buffer.alloc(8192 - head.length)]));
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(JSON.parse(responses[0]!.body).success).toBe(true);
  });

  it('curl: create with -d, list with a query, and the JSON error envelope', async () => {
    const url = `${server.baseURL}/zones/${zoneId}/dns_records`;
    const auth = ['-H', 'Authorization: Bearer http-token'];
    const created = await run('curl', [
      '-sS',
      '-X',
      'POST',
      url,
      ...auth,
      '-H',
      'Content-Type: application/json',
      '--data',
      JSON.stringify({ type: 'TXT', name: '_acme-challenge', content: '"abc123"', ttl: 60 }),
    ]);
    const body = JSON.parse(created.stdout);
    expect(schemaErrors('dns-records_dns_response_single', body)).toEqual([]);
    expect(body.result).toMatchObject({ name: '_acme-challenge.example.com', content: '"abc123"', ttl: 60 });

    const listed = await run('curl', ['-sS', `${url}?type=TXT&name=_acme-challenge.example.com`, ...auth]);
    expect(JSON.parse(listed.stdout).result.map((r: { id: string }) => r.id)).toEqual([body.result.id]);

    const missing = await run('curl', ['-sS', '-w', '\n%{http_code}', `${url}/${'0'.repeat(32)}`, ...auth]);
    const [json, code] = missing.stdout.split('\n');
    expect(code).toBe('404');
    expect(JSON.parse(json!).errors).toEqual([{ code: 81044, message: 'Record does not exist.' }]);

    // curl -d without a JSON content type is refused as the API refuses it.
    const form = await run('curl', ['-sS', '-X', 'POST', url, ...auth, '-d', '{"type":"A"}']);
    expect(JSON.parse(form.stdout).errors[0]).toMatchObject({ code: 6003, error_chain: [{ code: 6105 }] });
  });

  it('curl: multipart import and text/plain export', async () => {
    const url = `${server.baseURL}/zones/${zoneId}/dns_records`;
    const auth = ['-H', 'Authorization: Bearer http-token'];
    const imported = await run('curl', [
      '-sS',
      '-X',
      'POST',
      `${url}/import`,
      ...auth,
      '--form',
      'file=mail.example.com. 300 IN A 198.51.100.25\nexample.com. 300 IN MX 10 mail.example.com.',
      '--form',
      'proxied=false',
    ]);
    expect(JSON.parse(imported.stdout).result).toEqual({ recs_added: 2, total_records_parsed: 2 });
    const exported = await run('curl', ['-sS', '-i', `${url}/export`, ...auth]);
    expect(exported.stdout).toMatch(/content-type: text\/plain/i);
    expect(exported.stdout).toContain('mail.example.com.\t300\tIN\tA\t198.51.100.25 ; cf_tags=cf-proxied:false');
  });
});

describe('the CLI: edge-doubles dns serve (run from lib/node/cli.ts through tsx)', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    child = undefined;
  });

  it('serves a zone to curl with the given token, on 127.0.0.1, until SIGTERM', async () => {
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'lib/node/cli.ts',
        'dns',
        'serve',
        '--port',
        '0',
        '--zone',
        'example.org',
        '--token',
        'cli-token',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines = createInterface({ input: child.stdout! });
    const seen: string[] = [];
    for await (const line of lines) {
      seen.push(line);
      if (line.startsWith('zone ')) break;
    }
    const base = /listening on (\S+)/.exec(seen[0]!)![1]!;
    const zoneId = seen[1]!.split(' ')[2]!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);

    const zones = await run('curl', ['-sS', `${base}/zones?name=example.org`, '-H', 'Authorization: Bearer cli-token']);
    expect(JSON.parse(zones.stdout).result[0]).toMatchObject({ id: zoneId, name: 'example.org' });
    const denied = await run('curl', [
      '-sS',
      `${base}/zones/${zoneId}/dns_records`,
      '-H',
      'Authorization: Bearer other',
    ]);
    expect(JSON.parse(denied.stdout).errors[0].code).toBe(9109);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 20_000);

  it('reports usage and bad arguments with exit codes, leaving room for other services', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stopped: () => Promise.resolve() };
    expect(await runCli([], io)).toBe(2);
    expect(out.join('\n')).toContain('usage: edge-doubles <service> <command>');
    expect(out.join('\n')).toContain('dns serve');
    expect(await runCli(['bucket', 'serve'], io)).toBe(2);
    expect(err[0]).toBe('unknown command: bucket serve');
    await expect(runCli(['dns', 'serve', '--port', 'x'], io)).rejects.toThrow('--port must be 0..65535');
    await expect(runCli(['dns', 'serve', '--email', 'a@b.c'], io)).rejects.toThrow('--email and --key go together');
    expect(await runCli(['dns', 'serve', '--help'], io)).toBe(0);
  });

  it('in-process: serves, prints the zone and stops when asked', async () => {
    const out: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
    const running = runCli(
      ['dns', 'serve', '--port', '0', '--zone', 'example.net=' + 'a'.repeat(32), '--compat', 'today'],
      io,
    );
    await waitFor(() => out.length >= 3);
    expect(out[1]).toBe(`zone example.net ${'a'.repeat(32)}`);
    expect(out[2]).toBe('auth: any well-formed credential is accepted');
    const base = /listening on (\S+)/.exec(out[0]!)![1]!;
    const res = await fetch(`${base}/zones/${'a'.repeat(32)}/dns_records`, {
      headers: { authorization: 'Bearer anything' },
    });
    expect((await res.json()).result).toEqual([]);
    stop();
    expect(await running).toBe(0);
  });
});

describe('dns serve --tls', () => {
  it('serves HTTPS to curl --cacert with the CA written to --tls-ca-out; without the CA curl refuses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-dns-tls-'));
    try {
      const caFile = join(dir, 'ca.pem');
      const out: string[] = [];
      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
      const running = runCli(
        ['dns', 'serve', '--port', '0', '--zone', 'example.org', '--token', 't', '--tls', '--tls-ca-out', caFile],
        io,
      );
      await waitFor(() => out.length >= 3);
      expect(out[1]).toBe(`tls: CA certificate in ${caFile}`);
      const base = /listening on (\S+)/.exec(out[0]!)![1]!;
      expect(base).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
      const zones = await run('curl', [
        '-sS',
        '--cacert',
        caFile,
        `${base}/zones?name=example.org`,
        '-H',
        'Authorization: Bearer t',
      ]);
      expect(JSON.parse(zones.stdout).result[0]).toMatchObject({ name: 'example.org' });
      await expect(run('curl', ['-sS', `${base}/zones`])).rejects.toMatchObject({ code: 60 }); // curl: peer certificate cannot be authenticated
      stop();
      expect(await running).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});

async function waitFor(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}
