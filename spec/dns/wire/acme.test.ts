/**
 * A whole ACME DNS-01 issuance, offline: certbot's Cloudflare plugin (Debian certbot and
 * python3-certbot-dns-cloudflare) writes the challenge TXT records through `dns serve`'s API, and
 * Debian's pebble, an ACME server, validates them by asking `dns serve`'s DNS port (`-dnsserver`),
 * with validation on (no PEBBLE_VA_ALWAYS_VALID). A certificate for a name and its wildcard comes
 * back, and certbot's clean-up leaves the zone as it was. The negative control removes each TXT
 * record as soon as it is created: pebble then finds nothing and the issuance fails, which shows
 * the success really went through the double's DNS. pebble's and certbot's traits:
 * docs/sources/dns-wire.md#acme-clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DnsApi } from '../../../lib/dns.js';
import { serveHandler, type DnsExchange } from '../../../lib/node/index.js';
import { serveDns } from '../../../lib/node/dns-wire.js';
import { tlsMaterial } from '../../../lib/node/tls.js';
import { debianCommand } from '../../helpers/debian-command.js';
import { pythonFor } from '../clients/python.js';
import { serveCli } from './serve-cli.js';

const pebble = debianCommand('pebble', 'pebble');
const certbot = debianCommand('certbot', 'certbot');
const plugin = certbot && pythonFor('certbot_dns_cloudflare', 'python3-certbot-dns-cloudflare');
const missing = [!pebble && 'pebble', !certbot && 'certbot', !plugin && 'python3-certbot-dns-cloudflare'].filter(
  Boolean,
);
const suite = missing.length ? describe.skip : describe;
const where = missing.length
  ? `skipped: Debian package(s) ${missing.join(', ')} not installed`
  : `${certbot}, ${pebble}`;

const TOKEN = 'acme-token';

/** A port free right now (pebble takes its ports from its config file, not from the system). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Everything one issuance writes: pebble's TLS files and config, certbot's folders and credentials. */
interface Scratch {
  dir: string;
  ca: string;
  pebbleConfig: string;
  acmePort: number;
  credentials: string;
}

async function scratch(): Promise<Scratch> {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-acme-'));
  // pebble serves its ACME API over HTTPS only; certbot is told to trust the CA that signed it.
  const tls = await tlsMaterial(true, '127.0.0.1');
  writeFileSync(join(dir, 'cert.pem'), tls.cert);
  writeFileSync(join(dir, 'key.pem'), tls.key);
  writeFileSync(join(dir, 'ca.pem'), tls.ca!);
  const [acmePort, managementPort, httpPort, tlsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const pebbleConfig = join(dir, 'pebble.json');
  writeFileSync(
    pebbleConfig,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: join(dir, 'cert.pem'),
        privateKey: join(dir, 'key.pem'),
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const credentials = join(dir, 'cloudflare.ini');
  writeFileSync(credentials, `dns_cloudflare_api_token = ${TOKEN}\n`);
  chmodSync(credentials, 0o600); // certbot warns about (and may refuse) a readable credentials file
  mkdirSync(join(dir, 'home'));
  return { dir, ca: join(dir, 'ca.pem'), pebbleConfig, acmePort, credentials };
}

/** pebble with real validation, its DNS lookups sent to `dnsPort`; resolves once it listens. */
async function startPebble(s: Scratch, dnsPort: number): Promise<{ child: ChildProcess; output: string[] }> {
  const child = spawn(pebble!, ['-config', s.pebbleConfig, '-dnsserver', `127.0.0.1:${dnsPort}`], {
    // No sleep before validating, no nonces rejected at random, no reuse of earlier authorizations:
    // as fast and as deterministic as pebble gets, with validation still on (the environment is built
    // here, so a PEBBLE_VA_ALWAYS_VALID in the caller's shell cannot switch it off).
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_WFE_NONCEREJECT: '0',
      PEBBLE_AUTHZREUSE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  createInterface({ input: child.stderr! }).on('line', (l) => output.push(l));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`pebble exited ${code}: ${output.join('\n')}`)));
    lines.on('line', (line) => {
      output.push(line);
      if (line.includes('ACME directory available at')) resolve();
    });
  });
  return { child, output };
}

/**
 * `certbot certonly` for example.com and *.example.com through the dns-cloudflare plugin against
 * `baseURL`, its folders under `run` (a second run in the same folders would find the certificate
 * already there and ask pebble for nothing).
 */
async function runCertbot(s: Scratch, run: string, baseURL: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    certbot!,
    [
      'certonly',
      '--non-interactive',
      '--agree-tos',
      '--email',
      'admin@example.com',
      '--server',
      `https://127.0.0.1:${s.acmePort}/dir`,
      '--authenticator',
      'dns-cloudflare',
      '--dns-cloudflare-credentials',
      s.credentials,
      '--dns-cloudflare-propagation-seconds',
      '1',
      '-d',
      'example.com',
      '-d',
      '*.example.com',
      '--config-dir',
      join(s.dir, run, 'etc'),
      '--work-dir',
      join(s.dir, run, 'work'),
      '--logs-dir',
      join(s.dir, run, 'logs'),
    ],
    {
      // A clean environment: HOME is empty (no ~/.cloudflare.cfg); the CloudFlare 2.x library reads
      // the API's base URL from CLOUDFLARE_API_URL, certbot's requests trust pebble's CA from REQUESTS_CA_BUNDLE.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: join(s.dir, 'home'),
        CLOUDFLARE_API_URL: baseURL,
        REQUESTS_CA_BUNDLE: s.ca,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 150_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output: output.join('') };
}

suite(
  `ACME DNS-01 end to end: certbot dns-cloudflare + pebble against dns serve (${where})`,
  { timeout: 180_000 },
  () => {
    const stops: (() => Promise<void> | void)[] = [];
    let s: Scratch;
    beforeAll(async () => {
      s = await scratch();
      return () => rmSync(s.dir, { recursive: true, force: true });
    });
    afterEach(async () => {
      for (const stop of stops.splice(0).reverse()) await stop();
    });

    it('issues a certificate for example.com and *.example.com, validated over the double DNS; clean-up leaves the zone as it was', async () => {
      const served = await serveCli(['--zone', 'example.com', '--token', TOKEN, '--log'], 1);
      stops.push(() => served.stop());
      const zoneId = served.zones.get('example.com')!;
      const records = async () => {
        const res = await fetch(`${served.baseURL}/zones/${zoneId}/dns_records`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        return ((await res.json()) as { result: unknown[] }).result;
      };
      // Something already in the zone, which must still be there, unchanged, afterwards.
      await fetch(`${served.baseURL}/zones/${zoneId}/dns_records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'A', name: 'www', content: '192.0.2.80', ttl: 3600 }),
      });
      const before = await records();

      const ca = await startPebble(s, served.dnsPort);
      stops.push(() => {
        ca.child.kill('SIGTERM');
      });
      expect(ca.output.join('\n')).toContain(
        `Using custom DNS resolver for ACME challenges: 127.0.0.1:${served.dnsPort}`,
      );

      const result = await runCertbot(s, 'issued', served.baseURL);
      expect(result.output).toContain('Successfully received certificate');
      expect(result.code).toBe(0);

      const pem = readFileSync(join(s.dir, 'issued', 'etc', 'live', 'example.com', 'cert.pem'), 'utf8');
      const cert = new X509Certificate(pem);
      expect(cert.subjectAltName?.split(', ').sort()).toEqual(['DNS:*.example.com', 'DNS:example.com']);
      expect(cert.issuer).toMatch(/Pebble Intermediate CA/);

      // pebble's lookups reached the double: the challenge TXT answered over UDP, at least once per
      // authorization (pebble validates each from several attempts), with the record(s) present.
      const lookups = served.lines.filter((l) =>
        / dns udp _acme-challenge\.example\.com TXT NOERROR answers [12]$/i.test(l),
      );
      expect(lookups.length).toBeGreaterThanOrEqual(2);
      expect(await records()).toEqual(before);
    });

    it('negative control: each challenge TXT removed as soon as it is created, so pebble finds none and the issuance fails', async () => {
      const api = new DnsApi({ zones: [{ name: 'example.com' }], credentials: [{ token: TOKEN }] });
      // The API as served, except that a created TXT record is deleted before the answer goes back.
      const http = await serveHandler(async (request, target) => {
        const response = await api.handle(request, target);
        if (request.method === 'POST' && response.status === 200) {
          const { result } = (await response.clone().json()) as {
            result: { id: string; type: string; zone_id?: string };
          };
          if (result.type === 'TXT') {
            const zone = api.zone('example.com')!.id;
            await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zone}/dns_records/${result.id}`, {
              method: 'DELETE',
              headers: { authorization: `Bearer ${TOKEN}` },
            });
          }
        }
        return response;
      });
      stops.push(() => http.close());
      const seen: DnsExchange[] = [];
      const dns = await serveDns((q) => api.answer(q), { onExchange: (e) => seen.push(e) });
      stops.push(() => dns.close());

      const ca = await startPebble(s, dns.port);
      stops.push(() => {
        ca.child.kill('SIGTERM');
      });
      const result = await runCertbot(s, 'refused', `${http.origin}/client/v4`);
      expect(result.code).toBe(1);
      expect(result.output).toMatch(/Some challenges have failed/);
      // pebble's words for a non-NOERROR answer; '\x03' is rcode 3, NXDOMAIN (letsencrypt/pebble
      // va/va.go).
      expect(result.output).toMatch(
        /Error retrieving TXT records for DNS challenge .*DNS lookup for .*_acme-challenge\.example\.com.* returned an unsuccessful response: .*x03/,
      );
      // It failed because of what pebble read from the double, not for want of asking it.
      expect(
        seen.some(
          (e) =>
            e.transport === 'udp' &&
            e.question?.name.toLowerCase() === '_acme-challenge.example.com' &&
            e.rcode === 'NXDOMAIN',
        ),
      ).toBe(true);
      expect(existsSync(join(s.dir, 'refused', 'etc', 'live', 'example.com'))).toBe(false);
    });
  },
);
