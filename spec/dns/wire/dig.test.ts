/**
 * dig (Debian bind9-dnsutils) against startDnsServer({ dnsPort }): what a person checking a zone by
 * hand sees. TXT as certbot writes it, +tcp, +norec (no RD echoed, never RA: authoritative only),
 * ANY as RFC 8482, and an RRset too large for UDP that dig fetches again over TCP.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type RunningDnsServer } from '../../../lib/node/index.js';
import { debianCommand } from '../../helpers/debian-command.js';

const run = promisify(execFile);
const dig = debianCommand('dig', 'bind9-dnsutils');
const suite = dig ? describe : describe.skip;
const where = dig ? dig : 'skipped: Debian package bind9-dnsutils is not installed';

suite(`dig (${where}) against the zone over DNS`, { timeout: 30_000 }, () => {
  let server: RunningDnsServer & { dnsPort: number };
  const ask = async (...args: string[]) =>
    (await run(dig!, ['@127.0.0.1', '-p', String(server.dnsPort), '+time=2', '+tries=1', ...args])).stdout;

  beforeAll(async () => {
    server = await startDnsServer({ zones: [{ name: 'example.com' }], dnsPort: 0 });
    server.api.seed('example.com', [
      { type: 'TXT', name: '_acme-challenge', content: 'GQ3mR7x0Yk_c9f2LwzP4H1tBv8NsDd6Ee5JjKoUqi-A', ttl: 120 },
      { type: 'TXT', name: '_acme-challenge', content: '"quoted value" "second string"', ttl: 120 },
      { type: 'A', name: 'www', content: '192.0.2.10', ttl: 3600 },
      ...Array.from({ length: 40 }, (_, i) => ({
        type: 'TXT',
        name: 'many',
        content: `many ${i} ${'p'.repeat(30)}`,
        ttl: 60,
      })),
    ]);
  });
  afterAll(() => server.close());

  it('TXT: both values at one name, unquoted into character-strings, authoritative, EDNS udp 1232, no RA', async () => {
    const out = await ask('_acme-challenge.example.com', 'TXT');
    expect(out).toMatch(/;; flags: qr aa rd; QUERY: 1, ANSWER: 2, AUTHORITY: 0, ADDITIONAL: 1/);
    expect(out).toMatch(/; EDNS: version: 0, flags:; udp: 1232/);
    expect(out).toMatch(
      /_acme-challenge\.example\.com\.\s+120\s+IN\s+TXT\s+"GQ3mR7x0Yk_c9f2LwzP4H1tBv8NsDd6Ee5JjKoUqi-A"\n/,
    );
    expect(out).toMatch(/_acme-challenge\.example\.com\.\s+120\s+IN\s+TXT\s+"quoted value" "second string"\n/);
  });

  it('+tcp: the same answer over TCP', async () => {
    const out = await ask('+tcp', '_acme-challenge.example.com', 'TXT');
    expect(out).toMatch(/;; SERVER: 127\.0\.0\.1#\d+\(127\.0\.0\.1\) \(TCP\)/);
    expect(out).toMatch(/ANSWER: 2,/);
  });

  it('+norec: RD not echoed, RA never set; a mixed-case question is echoed as asked', async () => {
    const out = await ask('+norec', 'WWW.Example.COM', 'A');
    expect(out).toMatch(/;; flags: qr aa; QUERY: 1, ANSWER: 1,/);
    expect(out).toContain(';WWW.Example.COM.\t\tIN\tA');
    expect(out).toMatch(/WWW\.Example\.COM\.\s+3600\s+IN\s+A\s+192\.0\.2\.10/);
  });

  it('ANY: one HINFO "RFC8482" "" (RFC 8482, as Cloudflare answers)', async () => {
    const out = await ask('+noall', '+answer', 'example.com', 'ANY');
    expect(out.trim()).toMatch(/^example\.com\.\s+\d+\s+IN\s+HINFO\s+"RFC8482" ""$/);
  });

  it('an RRset over 1232 bytes: dig sees TC over UDP and retries over TCP; +ignore shows the truncated answer', async () => {
    const out = await ask('many.example.com', 'TXT');
    expect(out).toContain(';; Truncated, retrying in TCP mode.');
    expect(out).toMatch(/ANSWER: 40,/);
    const ignored = await ask('+ignore', '+noedns', 'many.example.com', 'TXT');
    expect(ignored).toMatch(/;; flags: qr aa tc rd; QUERY: 1, ANSWER: 0,/);
  });
});
