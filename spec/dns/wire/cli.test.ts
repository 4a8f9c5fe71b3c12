/**
 * `edge-doubles dns serve --dns-port`: the port printed on a line of its own, the zones answered
 * there over UDP and TCP from what the API holds, `--ns-name` naming the nameservers in both, and
 * the DNS questions in `--log`.
 */
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../lib/node/commands.js';
import { query, tcpSession } from './client.js';
import { serveCli, type ServedCli } from './serve-cli.js';

const TOKEN = 'cli-token';

describe('dns serve --dns-port 0 --ns-name ... (lib/node/cli.ts through tsx)', { timeout: 30_000 }, () => {
  let served: ServedCli;
  let resolver: Resolver;
  beforeAll(async () => {
    served = await serveCli(
      [
        '--zone',
        'example.com',
        '--token',
        TOKEN,
        '--ns-name',
        'ns1.example.com',
        '--ns-name',
        'ns2.example.com',
        '--log',
      ],
      1,
    );
    resolver = new Resolver({ timeout: 3000, tries: 1 });
    resolver.setServers([`127.0.0.1:${served.dnsPort}`]);
  });
  afterAll(() => served.stop());

  it("prints 'dns: udp+tcp 127.0.0.1:<port>' on a line of its own, after the API's line", () => {
    expect(served.banner[1]).toMatch(/^dns: udp\+tcp 127\.0\.0\.1:\d+$/);
    expect(served.dnsPort).toBeGreaterThan(0);
  });

  it('answers a record made over HTTP, over UDP and TCP on that one port; the nameservers are the --ns-name ones, in the API too', async () => {
    const id = served.zones.get('example.com')!;
    const res = await fetch(`${served.baseURL}/zones/${id}/dns_records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'TXT', name: '_acme-challenge', content: 'cli-validation', ttl: 120 }),
    });
    expect(res.status).toBe(200);
    expect(await resolver.resolveTxt('_acme-challenge.example.com')).toEqual([['cli-validation']]);
    const session = await tcpSession(served.dnsPort);
    session.send(query('_acme-challenge.example.com', 'TXT'));
    expect((await session.next()).answers!.map((a) => (a.data as Buffer[]).map(String))).toEqual([['cli-validation']]);
    session.close();

    expect((await resolver.resolveNs('example.com')).sort()).toEqual(['ns1.example.com', 'ns2.example.com']);
    expect((await resolver.resolveSoa('example.com')).nsname).toBe('ns1.example.com');
    const zone = await fetch(`${served.baseURL}/zones/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(((await zone.json()) as { result: { name_servers: string[] } }).result.name_servers).toEqual([
      'ns1.example.com',
      'ns2.example.com',
    ]);
    // --log: one line per DNS question, after the API's lines.
    await new Promise((r) => setTimeout(r, 100));
    expect(
      served.lines.filter((l) => / dns (udp|tcp) _acme-challenge\.example\.com TXT NOERROR answers 1$/.test(l)),
    ).toHaveLength(2);
  });
});

describe('dns serve --proxy-address', { timeout: 30_000 }, () => {
  it('proxied names answer with the given addresses (loopback here, for an offline HTTP-01 check)', async () => {
    const served = await serveCli(
      ['--zone', 'example.org', '--token', TOKEN, '--proxy-address', '127.0.0.1', '--proxy-address', '::1'],
      1,
    );
    try {
      const id = served.zones.get('example.org')!;
      const res = await fetch(`${served.baseURL}/zones/${id}/dns_records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'A', name: 'app', content: '198.51.100.9', proxied: true }),
      });
      expect(res.status).toBe(200);
      const resolver = new Resolver({ timeout: 3000, tries: 1 });
      resolver.setServers([`127.0.0.1:${served.dnsPort}`]);
      expect(await resolver.resolve4('app.example.org')).toEqual(['127.0.0.1']);
      expect(await resolver.resolve6('app.example.org')).toEqual(['::1']);
    } finally {
      await served.stop();
    }
  });
});

describe.each([
  ['api', ['--bucket', 'photos']],
  ['dns', []],
] as const)(
  '%s serve --dns-port 0: the account answers its zones over DNS, with test support over HTTP',
  { timeout: 30_000 },
  (command, more) => {
    let served: ServedCli;
    beforeAll(async () => {
      served = await serveCli(['--zone', 'example.com', ...more, '--token', TOKEN], 1, command);
    });
    afterAll(() => served.stop());

    it('answers a record made over HTTP; a DNS fault rule set over HTTP answers its rcode; the log says surface dns', async () => {
      expect(served.banner[1]).toMatch(/^dns: udp\+tcp 127\.0\.0\.1:\d+$/);
      const id = served.zones.get('example.com')!;
      const res = await fetch(`${served.baseURL}/zones/${id}/dns_records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'TXT', name: 'api', content: 'from-the-account', ttl: 120 }),
      });
      expect(res.status).toBe(200);
      const resolver = new Resolver({ timeout: 3000, tries: 1 });
      resolver.setServers([`127.0.0.1:${served.dnsPort}`]);
      expect(await resolver.resolveTxt('api.example.com')).toEqual([['from-the-account']]);

      const origin = new URL(served.baseURL).origin;
      const admin = (method: string, path: string, body?: unknown) =>
        fetch(`${origin}/_edge-doubles/${path}`, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
      const rule = await admin('POST', 'faults', {
        surface: 'dns',
        name: 'api.example.com',
        rcode: 'REFUSED',
        times: 1,
      });
      expect(rule.status).toBe(200);
      await expect(resolver.resolveTxt('api.example.com')).rejects.toMatchObject({ code: 'EREFUSED' });
      const log = (await (await admin('GET', 'log?surface=dns')).json()) as {
        surface: string;
        op: string;
        path: string;
      }[];
      expect(log.map((e) => [e.surface, e.op, e.path])).toContainEqual(['dns', 'TXT', 'api.example.com']);
    });
  },
);

describe('dns serve: --dns-port is checked like --port, and no DNS is served without it', () => {
  const io = (out: string[]): CliIo => ({ out: (l) => out.push(l), err: () => {}, stopped: () => Promise.resolve() });

  it.each(['x', '', '65536', '1.5'])('--dns-port %s is refused', async (port) => {
    await expect(runCli(['dns', 'serve', '--port', '0', '--dns-port', port], io([]))).rejects.toThrow(
      `--dns-port must be 0..65535, got ${port}`,
    );
  });

  it('without --dns-port there is no dns line', async () => {
    const out: string[] = [];
    expect(await runCli(['dns', 'serve', '--port', '0', '--zone', 'example.net'], io(out))).toBe(0);
    expect(out.some((l) => l.startsWith('dns:'))).toBe(false);
  });
});
