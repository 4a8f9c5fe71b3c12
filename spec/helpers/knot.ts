/**
 * A real authoritative server to hold the double against: Knot DNS (`knotd`, Debian package `knot`)
 * on a loopback port, serving zone files given as text, from a temporary directory and a config that
 * needs no root (no system paths, no control socket outside the directory, logs on stderr). Used by
 * the differential test (spec/dns/wire/knot.test.ts), the zone-file round trip and the wire bench.
 *
 *   const knot = await startKnot([{ name: 'example.com', text: zoneFileText }]);
 *   // ... query 127.0.0.1:knot.port over UDP or TCP ...
 *   await knot.stop();
 *
 * `knotCommand()` is undefined where knotd is missing (tests skip, naming the package), and throws
 * under CI (debian-command.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DnsApi } from '../../lib/dns.js';
import { debianCommand } from './debian-command.js';

export const KNOT_PACKAGE = 'knot';

/**
 * The apex SOA and NS records `api` synthesises for `zone` (docs/sources/dns-wire.md#apex-soa-and-ns),
 * as master-file lines for Knot.
 */
export function apexLines(api: DnsApi, zone: string): string[] {
  const soa = api.answer({ name: zone, type: 'SOA' }).answers[0]!;
  const s = soa.data as {
    mname: string;
    rname: string;
    serial: number;
    refresh: number;
    retry: number;
    expire: number;
    minimum: number;
  };
  return [
    `${zone}. ${soa.ttl} IN SOA ${s.mname}. ${s.rname}. ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minimum}`,
    ...api.answer({ name: zone, type: 'NS' }).answers.map((r) => `${zone}. ${r.ttl} IN NS ${r.data as string}.`),
  ];
}

/** knotd's path, or undefined (outside CI) when the package is not installed. */
export function knotCommand(): string | undefined {
  // Debian installs knotd in /usr/sbin, which a non-root PATH may leave out.
  return existsSync('/usr/sbin/knotd') ? '/usr/sbin/knotd' : debianCommand('knotd', KNOT_PACKAGE);
}

export interface KnotZone {
  /** The zone's apex, e.g. `example.com`. */
  name: string;
  /** The zone file (RFC 1035 master file) as text; it must hold the apex SOA. */
  text: string;
}

export interface RunningKnot {
  port: number;
  /** knotd's process id (a bench reads its CPU time from /proc). */
  pid: number;
  /** The temporary directory with the config and zone files (removed by `stop`). */
  dir: string;
  /** What knotd wrote to stderr so far (its warnings and errors: a zone that did not load is here). */
  log(): string;
  stop(): Promise<void>;
}

export interface KnotOptions {
  /** UDP and TCP workers (default 1 each: one core, as the double's one process). */
  workers?: number;
  /** How long to wait for the first answer (default 10 s). */
  startTimeoutMs?: number;
  /**
   * Sign every zone as it loads (Knot's automatic DNSSEC: a KSK and a ZSK of algorithm 13,
   * ECDSAP256SHA256, and an NSEC chain), its keys made in the temporary directory.
   */
  sign?: boolean;
}

/** A port free for both TCP and UDP on 127.0.0.1 (drawn by TCP, checked by UDP). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const p = (server.address() as { port: number }).port;
        server.close(() => resolve(p));
      });
    });
    const free = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

const quote = (s: string) => JSON.stringify(s);

/** The SOA query for `zone` (id 1), to see the server answer. */
function soaQuery(zone: string): Buffer {
  const labels = zone.split('.').filter(Boolean);
  const name = Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.of(l.length), Buffer.from(l)])),
    Buffer.of(0),
  ]);
  return Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]), name, Buffer.from([0, 6, 0, 1])]);
}

/** Whether the server on `port` answers `zone`'s SOA authoritatively (NOERROR, AA) within `ms`. */
function answersSoa(port: number, zone: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.on('error', () => done(false));
    socket.on('message', (m) => done(m.length >= 12 && (m[3]! & 0x0f) === 0 && (m[2]! & 0x04) !== 0));
    socket.send(soaQuery(zone), port, '127.0.0.1');
  });
}

/**
 * Starts knotd serving `zones` on 127.0.0.1 (UDP and TCP, one port), and resolves once every zone's
 * SOA is answered. Rejects, with knotd's log, if it exits or does not answer in time.
 */
export async function startKnot(zones: readonly KnotZone[], options: KnotOptions = {}): Promise<RunningKnot> {
  const knotd = knotCommand();
  if (!knotd) throw new Error(`knotd is not installed (Debian package ${KNOT_PACKAGE})`);
  const dir = await mkdtemp(join(tmpdir(), 'edge-doubles-knot-'));
  const port = await freePort();
  const workers = options.workers ?? 1;
  const files = zones.map((z, i) => ({ ...z, file: `zone-${i}.zone` }));
  for (const z of files) await writeFile(join(dir, z.file), z.text);
  const config = [
    'server:',
    `  rundir: ${quote(dir)}`,
    `  listen: 127.0.0.1@${port}`,
    `  udp-workers: ${workers}`,
    `  tcp-workers: ${workers}`,
    '  background-workers: 1',
    'database:',
    `  storage: ${quote(dir)}`,
    'log:',
    '  - target: stderr',
    '    any: warning',
    ...(options.sign ? ['policy:', '  - id: ecdsa', '    algorithm: ecdsap256sha256', '    nsec3: off'] : []),
    'template:',
    '  - id: default',
    `    storage: ${quote(dir)}`,
    // Serve the files as given: never write them back, keep no journal; sign only when asked.
    '    zonefile-sync: -1',
    '    zonefile-load: whole',
    '    journal-content: none',
    ...(options.sign ? ['    dnssec-signing: on', '    dnssec-policy: ecdsa'] : []),
    'zone:',
    ...files.flatMap((z) => [`  - domain: ${quote(z.name)}`, `    file: ${quote(z.file)}`]),
    '',
  ].join('\n');
  await writeFile(join(dir, 'knot.conf'), config);

  let stderr = '';
  const child: ChildProcess = spawn(knotd, ['-c', join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((resolve) => (exited ? resolve(undefined) : child.once('exit', resolve)));
    }
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 10_000);
  for (const z of zones) {
    while (!(await answersSoa(port, z.name, 200))) {
      if (exited || Date.now() > deadline) {
        await stop();
        throw new Error(`knotd did not answer ${z.name}'s SOA on port ${port}:\n${stderr}`);
      }
    }
  }
  return { port, pid: child.pid!, dir, log: () => stderr, stop };
}
