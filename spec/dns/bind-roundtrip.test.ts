/**
 * The zone-file round trip (issue 26): random seeded zones, written through the API, exported as a
 * BIND file; the file loads in `named-checkzone` (Debian bind9-utils) with nothing but "loaded
 * serial" and "OK" to say, then in a real authoritative server (Knot, Debian knot), which answers
 * every question over DNS exactly as the double does: rcode, AA, answers, authority (the SOA too,
 * serial and minimum), TTLs included. TCP, so no answer is cut by the UDP size.
 *
 * named-checkzone runs with its integrity checks on in-zone names (`-i local`): its default also looks
 * up out-of-zone MX and SRV targets over the network. Records are unproxied with explicit TTLs: a proxied or Auto record answers with the edge's
 * addresses or TTL 300 (lib/dns/resolve.ts), which no zone file can say. Targets are outside the
 * zone, so named-checkzone's integrity checks (an in-zone MX target without an address) stay quiet.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seeded } from '../../lib/random.js';
import { serveDns, type RunningDnsWire } from '../../lib/node/dns-wire.js';
import { debianCommand } from '../helpers/debian-command.js';
import { KNOT_PACKAGE, knotCommand, startKnot, type RunningKnot } from '../helpers/knot.js';
import { setup } from './helpers.js';
import { query, tcpSession, type Decoded, type Rr } from './wire/client.js';

const run = promisify(execFile);
const checkzone = debianCommand('named-checkzone', 'bind9-utils');
const knotd = knotCommand();
const missing = [!checkzone && 'bind9-utils', !knotd && KNOT_PACKAGE].filter(Boolean);
const suite = missing.length ? describe.skip : describe;
const where = missing.length
  ? `skipped: Debian package ${missing.join(' and ')} not installed`
  : 'named-checkzone and knotd';

const ZONE = 'example.com';
const SEEDS = [1, 2, 3, 4];
const RECORDS_A_ZONE = 45;
const TTLS = [60, 120, 300, 3600, 86400];

/** Seeded choices. */
function chooser(seed: number) {
  const next = seeded(seed);
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <T>(list: readonly T[]): T => list[int(list.length)]!, next };
}

/** TXT contents as the API takes them: plain, several strings, long (over 255 bytes), UTF-8, controls, quotes and backslashes. */
function txtContent(c: ReturnType<typeof chooser>): string {
  const word = () =>
    c.pick(['v=spf1', 'include:_spf.example.net', '-all', 'token', 'héllo', 'wörld', '✓', 'k=rsa;', 'p=MIIBIjAN']);
  switch (c.int(7)) {
    case 0:
      return word();
    case 1:
      return `${word()} ${word()} ${word()}`; // unquoted: one string, spaces and all
    case 2:
      return `"${word()}" "${word()} ${word()}"`;
    case 3:
      return 'x'.repeat(256 + c.int(500)); // over 255 bytes: served as several strings
    case 4:
      return `"${'dkim'.repeat(70 + c.int(40))}" "${word()}"`;
    case 5:
      return `"a \\"quoted\\" word \\\\ back" "\\001ctl"`;
    default:
      return `${word()}\u00e9\u2713 ${'é'.repeat(130 + c.int(20))}`; // UTF-8 cut at 255 bytes
  }
}

/** One random zone's records: LDH owners for address and MX records (named-checkzone's check-names), CNAMEs on names of their own. */
function randomRecords(seed: number): Record<string, unknown>[] {
  const c = chooser(seed);
  const host = () => (c.int(6) === 0 ? '@' : `host-${c.int(8)}`);
  const ttlOf = new Map<string, number>(); // one TTL an RRset: a zone file gives an RRset one TTL
  const ttl = (name: string, type: string) => {
    const key = `${name} ${type}`;
    if (!ttlOf.has(key)) ttlOf.set(key, c.pick(TTLS));
    return ttlOf.get(key)!;
  };
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < RECORDS_A_ZONE; i++) {
    const kind = c.int(10);
    let r: Record<string, unknown>;
    if (kind === 0) r = { type: 'A', name: host(), content: `198.51.100.${c.int(250) + 1}` };
    else if (kind === 1) r = { type: 'AAAA', name: host(), content: `2001:db8::${(c.int(65000) + 1).toString(16)}` };
    else if (kind === 2) r = { type: 'CNAME', name: `alias-${c.int(6)}`, content: `target-${c.int(9)}.example.net` };
    else if (kind === 3) r = { type: 'MX', name: host(), content: `mx-${c.int(5)}.example.net`, priority: c.int(50) };
    else if (kind === 4 || kind === 5)
      r = { type: 'TXT', name: c.pick([host(), '_acme-challenge', `_dmarc.host-${c.int(3)}`]), content: txtContent(c) };
    else if (kind === 6)
      r = {
        type: 'SRV',
        name: `_sip._tcp.host-${c.int(4)}`,
        data: { priority: c.int(20), weight: c.int(20), port: 5060 + c.int(3), target: `sip-${c.int(4)}.example.net` },
      };
    else if (kind === 7)
      r = {
        type: 'CAA',
        name: host(),
        data: {
          flags: 0,
          tag: c.pick(['issue', 'issuewild', 'iodef']),
          value: c.pick(['letsencrypt.org', 'ca.example.net; policy=ev', 'mailto:sécu@example.net']),
        },
      };
    else if (kind === 8)
      r = {
        type: 'HTTPS',
        name: host(),
        data: {
          priority: 1 + c.int(3),
          target: c.pick(['.', `svc-${c.int(3)}.example.net`]),
          value: c.pick(['alpn="h2"', 'alpn="h2,h3" port=8443', 'ipv4hint=192.0.2.1']),
        },
      };
    else
      r = {
        type: 'NAPTR',
        name: host(),
        data: {
          order: 100,
          preference: 10 + c.int(5),
          flags: 'S',
          service: c.pick(['SIP+D2U', 'SIP+D2T']),
          regex: '',
          replacement: `_sip._udp.host-${c.int(3)}.example.net`,
        },
      };
    out.push({ ...r, ttl: ttl(String(r.name), String(r.type)) });
  }
  return out;
}

/** dns-packet 5.6 has no mnemonic for these: it writes them by number. */
const WIRE_TYPE: Record<string, string> = { HTTPS: 'UNKNOWN_65', SVCB: 'UNKNOWN_64' };

/** An answer as compared: the rcode, AA, and each section's records sorted, names lower-cased, data as JSON. */
function shape(m: Decoded) {
  const rrs = (list: Rr[]) =>
    list
      .filter((r) => r.type !== 'OPT')
      .map((r) => `${r.name.toLowerCase()} ${r.ttl} ${r.type} ${JSON.stringify(r.data)}`)
      .sort();
  return { rcode: m.rcode, aa: m.flag_aa, answers: rrs(m.answers), authorities: rrs(m.authorities) };
}

suite(`BIND export round trip (${where})`, { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'edge-doubles-bind-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  for (const seed of SEEDS) {
    it(`seed ${seed}: the export loads in named-checkzone without a warning, and Knot serving it answers as the double does`, async () => {
      const s = setup({}, { name: ZONE, plan: 'enterprise' });
      let added = 0;
      for (const r of randomRecords(seed)) if ((await s.create(r)).status === 200) added++;
      expect(added).toBeGreaterThan(RECORDS_A_ZONE / 2); // the generator makes records the API takes
      const text = (await s.call('GET', '/export')).body as string;

      const file = join(dir, `seed-${seed}.zone`);
      await writeFile(file, text);
      // -i local: named-checkzone's integrity checks on the zone's own names; `full` also looks out-of-zone
      // MX and SRV targets up over the network, which says "has no addresses records" offline.
      const checked = await run(checkzone!, ['-i', 'local', ZONE, file]).catch(
        (e: { stdout?: string; stderr?: string }) => e,
      );
      const said = `${checked.stdout ?? ''}${checked.stderr ?? ''}`.trim().split('\n');
      expect(said, text).toEqual([expect.stringMatching(/^zone example\.com\/IN: loaded serial \d+$/), 'OK']);

      let knot: RunningKnot | undefined;
      let double: RunningDnsWire | undefined;
      try {
        knot = await startKnot([{ name: ZONE, text }]);
        expect(knot.log()).not.toMatch(/warning|error/i);
        double = await serveDns((q) => s.api.answer(q));
        const questions = new Map<string, [string, string]>();
        const ask = (name: string, type: string) => questions.set(`${name} ${type}`, [name, type]);
        for (const r of s.api.records(ZONE)) {
          ask(r.name, r.type);
          ask(r.name, 'A'); // a CNAME's target, or NODATA beside other types
        }
        ask(ZONE, 'SOA');
        ask(ZONE, 'NS');
        ask(`missing-${seed}.${ZONE}`, 'A'); // NXDOMAIN with the SOA
        ask(`host-9.${ZONE}`, 'TXT');
        const [k, d] = [await tcpSession(knot.port), await tcpSession(double.port)];
        try {
          for (const [name, asked] of questions.values()) {
            const type = WIRE_TYPE[asked] ?? asked;
            k.send(query(name, type, { edns: 4096 }));
            d.send(query(name, type, { edns: 4096 }));
            const [fromKnot, fromDouble] = [shape(await k.next()), shape(await d.next())];
            expect(fromDouble, `${name} ${asked}`).toEqual(fromKnot);
          }
        } finally {
          k.close();
          d.close();
        }
      } finally {
        await knot?.stop();
        await double?.close();
      }
    });
  }
});
