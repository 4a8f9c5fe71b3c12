/**
 * BIND's validator, `delv` (Debian bind9-dnsutils), against `startDnsServer` with DNSSEC enabled
 * through the API (issue 36): given the zone's key-signing key from `GET /zones/{id}/dnssec` as its
 * trust anchor, it fully validates positive answers (an A set, the apex MX and TXT, a wildcard's
 * answer, a CNAME and its target, a record created through the API a moment before) and the compact
 * denials of a missing name and a missing type; with another key as the anchor, nothing validates.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDnssecKeys } from '../../../lib/dns/dnssec-keys.js';
import { startDnsServer, type RunningDnsServer } from '../../../lib/node/index.js';
import { debianCommand } from '../../helpers/debian-command.js';

const run = promisify(execFile);
const delv = debianCommand('delv', 'bind9-dnsutils');
const where = delv ?? 'skipped: Debian package bind9-dnsutils is not installed';

describe.skipIf(!delv)(`delv (${where}) validates the signed zone`, { timeout: 60_000 }, () => {
  let server: RunningDnsServer & { dnsPort: number };
  let client: Cloudflare;
  let zoneId: string;
  let dir: string;

  /** delv's output (stdout and stderr: it writes its verdict on stderr) for one question under `anchor`. */
  const validate = async (name: string, type: string, anchor = 'anchor.conf'): Promise<string> => {
    // delv runs as a child process, asynchronously: the server answers in this process meanwhile.
    const args = ['@127.0.0.1', '-p', String(server.dnsPort), '-a', join(dir, anchor), '+root=example.com'];
    try {
      const { stdout, stderr } = await run(delv!, [...args, name, type], { timeout: 20_000 });
      return stdout + stderr;
    } catch (e) {
      const { stdout, stderr } = e as { stdout: string; stderr: string };
      return stdout + stderr;
    }
  };
  const anchorFile = (publicKey: string) => `trust-anchors { "example.com." static-key 257 3 13 "${publicKey}"; };\n`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'edge-doubles-delv-'));
    server = await startDnsServer({
      zones: [
        {
          name: 'example.com',
          records: [
            { type: 'A', name: 'www', content: '192.0.2.1', ttl: 300 },
            { type: 'A', name: 'www', content: '192.0.2.2', ttl: 300 },
            { type: 'MX', name: '@', content: 'mail.example.com', priority: 10, ttl: 3600 },
            { type: 'A', name: 'mail', content: '192.0.2.25', ttl: 300 },
            { type: 'TXT', name: '@', content: 'v=spf1 mx -all', ttl: 3600 },
            { type: 'A', name: '*.apps', content: '192.0.2.3', ttl: 120 },
            { type: 'CNAME', name: 'alias', content: 'www.example.com', ttl: 600 },
          ],
        },
      ],
      credentials: [{ token: 't' }],
      dnsPort: 0,
    });
    client = new Cloudflare({ apiToken: 't', baseURL: server.baseURL, maxRetries: 0 });
    zoneId = server.api.zone('example.com')!.id;
    const dnssec = await client.dns.dnssec.edit({ zone_id: zoneId, status: 'active' });
    await writeFile(join(dir, 'anchor.conf'), anchorFile(dnssec.public_key!));
    await writeFile(join(dir, 'wrong.conf'), anchorFile((await makeDnssecKeys('example.com')).ksk.publicKey));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['www.example.com', 'A', /www\.example\.com\.\s+300\s+IN\s+A\s+192\.0\.2\.1/],
    ['example.com', 'MX', /example\.com\.\s+3600\s+IN\s+MX\s+10 mail\.example\.com\./],
    ['example.com', 'TXT', /example\.com\.\s+3600\s+IN\s+TXT\s+"v=spf1 mx -all"/],
    ['anything.apps.example.com', 'A', /anything\.apps\.example\.com\.\s+120\s+IN\s+A\s+192\.0\.2\.3/],
    ['alias.example.com', 'A', /alias\.example\.com\.\s+600\s+IN\s+CNAME\s+www\.example\.com\./],
    ['example.com', 'DNSKEY', /example\.com\.\s+3600\s+IN\s+DNSKEY\s+257 3 13 /],
  ])('%s %s: fully validated', async (name, type, record) => {
    const out = await validate(name, type);
    expect(out).toMatch(/^; fully validated$/m);
    expect(out).toMatch(record);
  });

  it('a missing name and a missing type: negative responses, fully validated (compact denial)', async () => {
    const missingName = await validate('no-such-name.example.com', 'A');
    expect(missingName).toMatch(/^; negative response, fully validated$/m);
    expect(missingName).toMatch(/NSEC\s+\\000\.no-such-name\.example\.com\. RRSIG NSEC TYPE128/);
    const missingType = await validate('www.example.com', 'TXT');
    expect(missingType).toMatch(/^; negative response, fully validated$/m);
    expect(missingType).toMatch(/NSEC\s+\\000\.www\.example\.com\. A /);
  });

  it('a record created through the API a moment before: fully validated', async () => {
    await client.dns.records.create({
      zone_id: zoneId,
      type: 'TXT',
      name: '_acme-challenge.example.com',
      content: 'token-fresh',
      ttl: 120,
    });
    const out = await validate('_acme-challenge.example.com', 'TXT');
    expect(out).toMatch(/^; fully validated$/m);
    expect(out).toContain('"token-fresh"');
  });

  it('with another key as the trust anchor: no validation, no answer given as validated', async () => {
    for (const [name, type] of [
      ['www.example.com', 'A'],
      ['no-such-name.example.com', 'A'],
    ]) {
      const out = await validate(name!, type!, 'wrong.conf');
      expect(out).not.toMatch(/fully validated/);
      expect(out).toMatch(/resolution failed: broken trust chain/);
    }
  });
});
