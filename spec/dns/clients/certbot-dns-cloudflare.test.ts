/**
 * certbot's Cloudflare plugin (Debian's python3-certbot-dns-cloudflare) running its DNS-01 steps
 * against the double over real HTTP: `_CloudflareClient.add_txt_record` then `del_txt_record`, with
 * an API token and with an e-mail + global key, as the plugin's credentials file allows. The plugin
 * finds the zone with `GET /zones?name=<guess>&per_page=1` for each parent of the domain in turn,
 * creates `{type: 'TXT', name, content: <validation>, ttl: 120}`, and on clean-up looks the record up
 * with `?type=TXT&name=<name>&content=<validation>&per_page=1` and deletes the first match: the zone
 * is as it was only if content filters match what it sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DnsApi, type DnsApiOptions } from '../../../lib/dns.js';
import { serveHandler, startDnsServer } from '../../../lib/node/index.js';
import { pythonFor, startLineDriver, type LineDriver } from './python.js';

const python = pythonFor('certbot_dns_cloudflare', 'python3-certbot-dns-cloudflare');
const root = fileURLToPath(new URL('../../../', import.meta.url));
const TOKEN = 'certbot-token';
const NET_TOKEN = 'certbot-token-for-example-net';
const EMAIL = 'dev@example.com';
const KEY = '0123456789abcdef0123456789abcdef01234';
const tokenEnv = { CERTBOT_DNS_CLOUDFLARE_API_TOKEN: TOKEN };
const keyEnv = { CERTBOT_DNS_CLOUDFLARE_EMAIL: EMAIL, CERTBOT_DNS_CLOUDFLARE_API_KEY: KEY };
// ACME validations are 43 characters of base64url.
const VALIDATION = 'GQ3mR7x0Yk_c9f2LwzP4H1tBv8NsDd6Ee5JjKoUqi-A';
const OTHER_VALIDATION = 'nU2pX9cRb4Lk7wQz0Ya1Ve3Ts6Hm8Gd5Ff_Jo-IiKqM';

const options: DnsApiOptions = {
  zones: [{ name: 'example.com' }, { name: 'example.net' }],
  credentials: [{ token: TOKEN }, { email: EMAIL, key: KEY }, { token: NET_TOKEN, zones: ['example.net'] }],
};

interface StepResult {
  ok: boolean;
  error?: { class: string; message: string };
  log: string[];
}

const suite = python ? describe : describe.skip;
// One Python process per file runs every step: importing certbot is what takes time.
let driver: LineDriver | undefined;
if (python) {
  beforeAll(() => {
    driver = startLineDriver(python, 'certbot_steps.py');
  });
  afterAll(() => driver?.close());
}
const where = python
  ? `on ${python.bin}`
  : 'skipped: Debian package python3-certbot-dns-cloudflare is not installed, no python3 imports certbot_dns_cloudflare';

suite(`python3-certbot-dns-cloudflare (${where}): the DNS-01 steps against startDnsServer`, { timeout: 30_000 }, () => {
  let server: { baseURL: string; close(): Promise<void> };
  let api: DnsApi;
  let zoneId: string;
  let seededIds: string[];

  const certbot = (
    env: Record<string, string>,
    action: 'add' | 'del',
    domain: string,
    name: string,
    validation = VALIDATION,
  ) => step(server.baseURL, env, action, domain, name, validation);

  /** What a zone holds before a certificate run: the challenge name already has an unrelated TXT. */
  const seed = async (target: DnsApi, id: string) => {
    for (const record of [
      { type: 'A', name: 'www', content: '198.51.100.4', ttl: 3600 },
      { type: 'MX', name: '@', content: 'mail.example.com', priority: 10, ttl: 1 },
      { type: 'TXT', name: '_acme-challenge', content: 'left by someone else', ttl: 300 },
    ]) {
      const res = await target.fetch(`https://api.cloudflare.com/client/v4/zones/${id}/dns_records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(record),
      });
      expect(res.status).toBe(200);
    }
  };

  beforeEach(async () => {
    const started = await startDnsServer(options);
    server = started;
    api = started.api;
    zoneId = api.zone('example.com')!.id;
    await seed(api, zoneId);
    seededIds = api.records(zoneId).map((r) => r.id);
  });
  afterEach(() => server.close());

  /** The records the plugin added: those that were not seeded. */
  const challenges = () => {
    const seeded = new Set(seededIds);
    return api.records(zoneId).filter((r) => !seeded.has(r.id));
  };

  it('API token: add creates the challenge TXT as sent, del removes it and leaves the zone as found', async () => {
    const before = api.records(zoneId);
    const added = await certbot(tokenEnv, 'add', 'example.com', '_acme-challenge.example.com');
    expect(added.ok).toBe(true);
    const [challenge, ...more] = challenges();
    expect(more).toEqual([]);
    expect(challenge).toMatchObject({
      type: 'TXT',
      name: '_acme-challenge.example.com',
      content: VALIDATION,
      ttl: 120,
      proxied: false,
    });
    // The plugin looks the new record up by name and content right after creating it.
    expect(added.log).toContain(`DEBUG Successfully added TXT record with record_id: ${challenge!.id}`);

    const deleted = await certbot(tokenEnv, 'del', 'example.com', '_acme-challenge.example.com');
    expect(deleted).toEqual({ ok: true, log: expect.arrayContaining(['DEBUG Successfully deleted TXT record.']) });
    expect(api.records(zoneId)).toEqual(before);
  });

  it('global key (e-mail + key): a subdomain and a wildcard on one name, each clean-up removes only its own record', async () => {
    const before = api.records(zoneId);
    const name = '_acme-challenge.shop.example.com';
    // A certificate for shop.example.com and *.shop.example.com: two validations at one name.
    expect((await certbot(keyEnv, 'add', 'shop.example.com', name, VALIDATION)).ok).toBe(true);
    expect((await certbot(keyEnv, 'add', 'shop.example.com', name, OTHER_VALIDATION)).ok).toBe(true);
    expect(
      challenges()
        .map((r) => [r.name, r.content, r.ttl])
        .sort(),
    ).toEqual(
      [
        [name, VALIDATION, 120],
        [name, OTHER_VALIDATION, 120],
      ].sort(),
    );

    expect((await certbot(keyEnv, 'del', 'shop.example.com', name, VALIDATION)).log).toContain(
      'DEBUG Successfully deleted TXT record.',
    );
    expect(challenges().map((r) => r.content)).toEqual([OTHER_VALIDATION]);
    expect((await certbot(keyEnv, 'del', 'shop.example.com', name, OTHER_VALIDATION)).log).toContain(
      'DEBUG Successfully deleted TXT record.',
    );
    expect(api.records(zoneId)).toEqual(before);

    // A second clean-up finds nothing and says so, without failing.
    const again = await certbot(keyEnv, 'del', 'shop.example.com', name, VALIDATION);
    expect(again).toEqual({
      ok: true,
      log: expect.arrayContaining(['DEBUG TXT record not found; no cleanup needed.']),
    });
    expect(api.records(zoneId)).toEqual(before);
  });

  it("compat 'document' (the interface document's TXT quoting) leaves the record behind: why today's API is what clients need", async () => {
    const documentMode = await startDnsServer({ ...options, quoteTxt: undefined, compat: 'document' });
    try {
      const id = documentMode.api.zone('example.com')!.id;
      const added = await step(
        documentMode.baseURL,
        tokenEnv,
        'add',
        'example.com',
        '_acme-challenge.example.com',
        VALIDATION,
      );
      // Stored quoted, so the plugin's own look-up right after creating it already finds nothing.
      expect(added.log).toContain('DEBUG Successfully added TXT record with record_id: None');
      const deleted = await step(
        documentMode.baseURL,
        tokenEnv,
        'del',
        'example.com',
        '_acme-challenge.example.com',
        VALIDATION,
      );
      expect(deleted).toEqual({
        ok: true,
        log: expect.arrayContaining(['DEBUG TXT record not found; no cleanup needed.']),
      });
      expect(documentMode.api.records(id).map((r) => [r.type, r.name, r.content])).toEqual([
        ['TXT', '_acme-challenge.example.com', `"${VALIDATION}"`],
      ]);
    } finally {
      await documentMode.close();
    }
  });

  it('what the plugin sends: zone guesses, the create body, the clean-up lookup and the delete', async () => {
    const recorded = new DnsApi(options);
    const id = recorded.zone('example.com')!.id;
    await seed(recorded, id);
    const seen: string[] = [];
    const running = await serveHandler(async (request) => {
      const url = new URL(request.url);
      const auth = request.headers.get('authorization')
        ? 'bearer'
        : request.headers.get('x-auth-key')
          ? 'x-auth'
          : 'none';
      const body = request.method === 'POST' ? ` ${await request.clone().text()}` : '';
      seen.push(`${request.method} ${url.pathname}${url.search} ${auth} ${request.headers.get('content-type')}${body}`);
      return recorded.handle(request);
    });
    try {
      const base = `${running.origin}/client/v4`;
      expect(
        (await step(base, tokenEnv, 'add', 'shop.example.com', '_acme-challenge.shop.example.com', VALIDATION)).ok,
      ).toBe(true);
      const recordId = recorded.records(id).find((r) => r.content === VALIDATION)!.id;
      expect(
        (await step(base, keyEnv, 'del', 'shop.example.com', '_acme-challenge.shop.example.com', VALIDATION)).ok,
      ).toBe(true);
      const json = 'application/json';
      const lookup = `GET /client/v4/zones/${id}/dns_records?type=TXT&name=_acme-challenge.shop.example.com&content=${VALIDATION}&per_page=1`;
      expect(seen).toEqual([
        `GET /client/v4/zones?name=shop.example.com&per_page=1 bearer ${json}`,
        `GET /client/v4/zones?name=example.com&per_page=1 bearer ${json}`,
        `POST /client/v4/zones/${id}/dns_records bearer ${json} {"type": "TXT", "name": "_acme-challenge.shop.example.com", "content": "${VALIDATION}", "ttl": 120}`,
        `${lookup} bearer ${json}`,
        `GET /client/v4/zones?name=shop.example.com&per_page=1 x-auth ${json}`,
        `GET /client/v4/zones?name=example.com&per_page=1 x-auth ${json}`,
        `${lookup} x-auth ${json}`,
        `DELETE /client/v4/zones/${id}/dns_records/${recordId} x-auth ${json}`,
      ]);
    } finally {
      await running.close();
    }
  });

  it('a wrong global key: add stops at the zone lookup with the plugin hint for 9103, and nothing changes', async () => {
    const before = api.records(zoneId);
    const wrong = { CERTBOT_DNS_CLOUDFLARE_EMAIL: EMAIL, CERTBOT_DNS_CLOUDFLARE_API_KEY: 'f'.repeat(37) };
    const added = await certbot(wrong, 'add', 'example.com', '_acme-challenge.example.com');
    expect(added.error).toEqual({
      class: 'PluginError',
      message:
        'Error determining zone_id: 9103 Unknown X-Auth-Key or X-Auth-Email. Please confirm that you have supplied valid Cloudflare API credentials. (Did you enter the correct email address and Global key?)',
    });
    expect((await certbot(wrong, 'del', 'example.com', '_acme-challenge.example.com')).ok).toBe(true);
    expect(api.records(zoneId)).toEqual(before);
  });

  it('CLOUDFLARE_EMAIL left in the environment with an API token: the library sends the token as X-Auth-Key and the 6003 answer stops certbot', async () => {
    // The CloudFlare 2.x library reads CLOUDFLARE_EMAIL itself; with an e-mail and a token it sends
    // X-Auth-Email + X-Auth-Key: <token>, which the API refuses as a malformed key (users' reports:
    // certbot/certbot#9768, acmesh-official/acme.sh#4824 shows the API's body).
    const before = api.records(zoneId);
    const added = await certbot(
      { ...tokenEnv, CLOUDFLARE_EMAIL: EMAIL },
      'add',
      'example.com',
      '_acme-challenge.example.com',
    );
    expect(added.error?.message).toMatch(
      /^Error determining zone_id: 6003 Invalid request headers\. Please confirm that you have supplied valid Cloudflare API credentials\. \(Did you copy your entire API token\/key\?/,
    );
    expect(api.records(zoneId)).toEqual(before);
  });

  it('an unknown API token: add stops with the plugin hint for 9109', async () => {
    const before = api.records(zoneId);
    const added = await certbot(
      { CERTBOT_DNS_CLOUDFLARE_API_TOKEN: 'not-a-known-token' },
      'add',
      'example.com',
      '_acme-challenge.example.com',
    );
    expect(added.error).toEqual({
      class: 'PluginError',
      message:
        'Error determining zone_id: 9109 Invalid access token. Please confirm that you have supplied valid Cloudflare API credentials. (Did you enter a valid Cloudflare Token?)',
    });
    expect(api.records(zoneId)).toEqual(before);
  });

  it('a domain in no zone of the account: add fails with the plugin message, del is a quiet no-op', async () => {
    const before = api.records(zoneId);
    const added = await certbot(tokenEnv, 'add', 'example.org', '_acme-challenge.example.org');
    expect(added.error).toEqual({
      class: 'PluginError',
      message:
        "Unable to determine zone_id for example.org using zone names: ['example.org', 'org']. Please confirm that the domain name has been entered correctly and is already associated with the supplied Cloudflare account.",
    });
    const deleted = await certbot(tokenEnv, 'del', 'example.org', '_acme-challenge.example.org');
    expect(deleted.ok).toBe(true);
    expect(deleted.log[0]).toMatch(
      /^DEBUG Encountered error finding zone_id during deletion: Unable to determine zone_id for example\.org/,
    );
    expect(api.records(zoneId)).toEqual(before);
  });

  it('a token limited to another zone does not see this one: add fails as for a zone the account lacks', async () => {
    const before = api.records(zoneId);
    const added = await certbot(
      { CERTBOT_DNS_CLOUDFLARE_API_TOKEN: NET_TOKEN },
      'add',
      'example.com',
      '_acme-challenge.example.com',
    );
    expect(added.error?.message).toBe(
      "Unable to determine zone_id for example.com using zone names: ['example.com', 'com']. Please confirm that the domain name has been entered correctly and is already associated with the supplied Cloudflare account.",
    );
    expect(api.records(zoneId)).toEqual(before);
    // The same token completes a cycle in its own zone.
    const netId = api.zone('example.net')!.id;
    const net = { CERTBOT_DNS_CLOUDFLARE_API_TOKEN: NET_TOKEN };
    expect((await certbot(net, 'add', 'example.net', '_acme-challenge.example.net')).ok).toBe(true);
    expect(api.records(netId).map((r) => [r.type, r.name, r.content])).toEqual([
      ['TXT', '_acme-challenge.example.net', VALIDATION],
    ]);
    expect((await certbot(net, 'del', 'example.net', '_acme-challenge.example.net')).ok).toBe(true);
    expect(api.records(netId)).toEqual([]);
  });
});

suite(
  `python3-certbot-dns-cloudflare (${where}) against the CLI: edge-doubles dns serve (run from lib/node/cli.ts through tsx)`,
  { timeout: 30_000 },
  () => {
    let child: ChildProcess | undefined;
    afterEach(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    });

    it('a full DNS-01 cycle with an API token leaves the served zone empty again', async () => {
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
          'example.com',
          '--token',
          TOKEN,
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const lines = createInterface({ input: child.stdout! });
      const banner: string[] = [];
      for await (const line of lines) {
        banner.push(line);
        if (line.startsWith('zone ')) break;
      }
      const base = /listening on (\S+)/.exec(banner[0]!)![1]!;
      const id = banner[1]!.split(' ')[2]!;
      const txt = async () => {
        const res = await fetch(`${base}/zones/${id}/dns_records?type=TXT`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        return ((await res.json()) as { result: { name: string; content: string; ttl: number }[] }).result.map((r) => [
          r.name,
          r.content,
          r.ttl,
        ]);
      };

      expect((await step(base, tokenEnv, 'add', 'example.com', '_acme-challenge.example.com', VALIDATION)).ok).toBe(
        true,
      );
      expect(await txt()).toEqual([['_acme-challenge.example.com', VALIDATION, 120]]);
      const deleted = await step(base, tokenEnv, 'del', 'example.com', '_acme-challenge.example.com', VALIDATION);
      expect(deleted.log).toContain('DEBUG Successfully deleted TXT record.');
      expect(await txt()).toEqual([]);
    });
  },
);

/**
 * One plugin step, run by the suite's Python process. The base URL goes to both library
 * generations: CLOUDFLARE_API_URL for the `CloudFlare` 2.x library that Debian's plugin imports,
 * CLOUDFLARE_BASE_URL for the `cloudflare` 4.x SDK that newer upstream releases of the plugin use.
 */
function step(
  baseURL: string,
  env: Record<string, string>,
  action: 'add' | 'del',
  domain: string,
  name: string,
  validation: string,
) {
  return driver!.send<StepResult>({
    step: action,
    domain,
    name,
    validation,
    env: { CLOUDFLARE_API_URL: baseURL, CLOUDFLARE_BASE_URL: baseURL, ...env },
  });
}
