/**
 * The DNS wire (issue 20): UDP queries per second against the double's DNS server, as a ratio of a
 * bare UDP echo server measured in the same run (goal ≥ 0.5×), and the in-process paths per query:
 * `api.answer` (resolution alone) and `respond` (decode, resolve, encode, no socket). Each server
 * runs in a process of its own (bench/dns-wire-server.ts); the load generator here keeps WINDOW queries
 * in flight on one socket. Rounds alternate echo and double, and the median round is reported, with
 * each server's CPU time per query (measured inside it). With DNSSEC (issue 36): the zone signed and
 * the DO bit on half the questions, over the wire (with the share of answers the answer cache gave)
 * and in process, where each answer is signed anew or its signatures are given again.
 */
import { createSocket } from 'node:dgram';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import packet from 'dns-packet';
import { ManualClock } from '../lib/clock.js';
import type { DnsApi } from '../lib/dns.js';
import { DnsAnswerCache } from '../lib/node/dns-answer-cache.js';
import { respond } from '../lib/node/dns-message.js';
import { knotCommand, startKnot } from '../spec/helpers/knot.js';
import { benchZone, benchZoneFile, signBenchZone, ZONE_SIZE } from './dns-wire-server.js';

const WINDOW = 64;
const ROUND_MS = 2_000;
const ROUNDS = 3;

/**
 * Queries for names in the zone: mostly A records that exist, some TXT, some names that do not;
 * with `dnssecHalf`, every other one carries EDNS with the DO bit (the rest none), as when half the
 * askers validate.
 */
function queries(dnssecHalf = false): Buffer[] {
  return Array.from({ length: 1024 }, (_, i) => {
    const n = (i * 7919) % ZONE_SIZE;
    const [name, type] =
      i % 8 === 0
        ? [`missing-${n}.bench.example`, 'A']
        : i % 8 === 1
          ? [`host-${n - (n % 20)}.bench.example`, 'TXT']
          : [`host-${n}.bench.example`, 'A'];
    const dnssec = dnssecHalf && i % 2 === 1;
    return packet.encode({
      id: i,
      type: 'query',
      flags: packet.RECURSION_DESIRED,
      questions: [{ name, type: type as 'A' }],
      ...(dnssec
        ? {
            additionals: [
              { type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK } as packet.OptAnswer,
            ],
          }
        : {}),
    });
  });
}

interface Round {
  /** Answers the load generator received per second. */
  qps: number;
  /** The server's CPU time (user + system) per message it answered, µs. */
  cpuPerQuery: number;
  /** The share of messages the answer cache answered (the double's servers). */
  hitShare?: number;
}

/** Loads a server of `kind` with `generator` (given its port); the server's CPU per query when it can say. */
async function round(
  kind: 'echo' | 'double' | 'double-signed' | 'knot',
  generator: (port: number) => Promise<number>,
): Promise<Round> {
  if (kind === 'knot') {
    // One UDP and one TCP worker: the double has one thread.
    const knot = await startKnot([{ name: 'bench.example', text: benchZoneFile(benchZone()) }], { workers: 1 });
    try {
      const cpuAtStart = processCpuMicros(knot.pid);
      const started = performance.now();
      const qps = await generator(knot.port);
      const answered = (qps * (performance.now() - started)) / 1000;
      return { qps, cpuPerQuery: (processCpuMicros(knot.pid) - cpuAtStart) / answered };
    } finally {
      await knot.stop();
    }
  }
  const script = fileURLToPath(new URL('./dns-wire-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const port = Number((await lines.next()).value);
  const qps = await generator(port);
  child.stdin!.end();
  const { answered, hits, cpuMicros } = JSON.parse((await lines.next()).value as string) as {
    answered: number;
    hits: number;
    cpuMicros: number;
  };
  await once(child, 'exit');
  return { qps, cpuPerQuery: cpuMicros / answered, ...(kind === 'echo' ? {} : { hitShare: hits / answered }) };
}

/** A process's CPU time so far (user + system, µs), from /proc (Linux; clock ticks at 100 Hz). */
function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const DNSPERF = '/usr/bin/dnsperf';
const DNSPERF_SECONDS = 3;

/** dnsperf (Debian `dnsperf`) against `port`: one client, 100 queries in flight; its queries per second. */
function dnsperf(port: number, file: string, mode: 'udp' | 'tcp'): Promise<number> {
  return new Promise((resolve) => {
    const args = [
      '-m',
      mode,
      '-s',
      '127.0.0.1',
      '-p',
      String(port),
      '-d',
      file,
      '-l',
      String(DNSPERF_SECONDS),
      '-c',
      '1',
      '-T',
      '1',
      '-q',
      '100',
    ];
    const out = execFileSync(DNSPERF, args, { encoding: 'utf8' });
    resolve(Number(/Queries per second:\s+([\d.]+)/.exec(out)?.[1] ?? NaN));
  });
}

/** Answers received per second over ROUND_MS with WINDOW queries in flight (a lost one is replaced after 100 ms). */
function load(port: number, messages: Buffer[]): Promise<number> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    let next = 0;
    let received = 0;
    let lastAnswer = performance.now();
    const send = () => socket.send(messages[next++ % messages.length]!, port, '127.0.0.1');
    socket.on('message', () => {
      received++;
      lastAnswer = performance.now();
      send();
    });
    socket.bind(0, '127.0.0.1', () => {
      const start = performance.now();
      for (let i = 0; i < WINDOW; i++) send();
      const watchdog = setInterval(() => {
        const now = performance.now();
        if (now - start >= ROUND_MS) {
          clearInterval(watchdog);
          socket.close();
          resolve(received / ((now - start) / 1000));
        } else if (now - lastAnswer > 100) {
          for (let i = 0; i < WINDOW; i++) send();
          lastAnswer = now;
        }
      }, 20);
    });
  });
}

/**
 * The double against Knot, in queries/s and in server CPU per query: on a shared machine the second
 * says what each would sustain with a core to itself, which a busy neighbour disturbs less.
 */
const knotRatio = (double: Round[], knot: Round[]): string =>
  `${(median(double.map((r) => r.qps)) / median(knot.map((r) => r.qps))).toFixed(2)}× in queries/s, ${(median(knot.map((r) => r.cpuPerQuery)) / median(double.map((r) => r.cpuPerQuery))).toFixed(2)}× in server CPU per query`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function perQuery(label: string, n: number, fn: (i: number) => unknown): { path: string; 'µs/query': string } {
  for (let i = 0; i < 2000; i++) fn(i); // warm up
  const start = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return { path: label, 'µs/query': (((performance.now() - start) * 1000) / n).toFixed(2) };
}

export async function benchDnsWire(): Promise<void> {
  const messages = queries();
  const halfSigned = queries(true);
  const own = (port: number) => load(port, messages);
  const withKnot = knotCommand() !== undefined;
  const echo: Round[] = [];
  const double: Round[] = [];
  const signed: Round[] = [];
  const knot: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    echo.push(await round('echo', own));
    double.push(await round('double', own));
    signed.push(await round('double-signed', (port) => load(port, halfSigned)));
    if (withKnot) knot.push(await round('knot', own));
  }
  const row = (server: string, rounds: Round[]) => ({
    server,
    'queries/s': Math.round(median(rounds.map((r) => r.qps))).toLocaleString('en'),
    'server CPU µs/query': median(rounds.map((r) => r.cpuPerQuery)).toFixed(1),
    'queries/s per round': rounds.map((r) => Math.round(r.qps)).join(' / '),
    'answer cache hits':
      rounds[0]?.hitShare === undefined ? '' : `${(median(rounds.map((r) => r.hitShare!)) * 100).toFixed(1)}%`,
  });
  console.log(
    `\nDNS wire: UDP queries per second (Node load generator, ${WINDOW} in flight, ${ROUNDS} rounds of ${ROUND_MS / 1000} s each, median; zone of ${ZONE_SIZE} records)`,
  );
  console.table([
    row('bare UDP echo (dgram)', echo),
    row('double (serveDns + answer cache)', double),
    row('double, zone signed, DO on half the questions', signed),
    ...(withKnot ? [row('Knot DNS (knotd, 1 UDP worker)', knot)] : []),
  ]);
  const qpsRatio = median(double.map((r) => r.qps)) / median(echo.map((r) => r.qps));
  const cpuRatio = median(echo.map((r) => r.cpuPerQuery)) / median(double.map((r) => r.cpuPerQuery));
  // When one load generator cannot saturate the echo server, both reach about the same rate; the
  // server's CPU per query then says what each could sustain with a core to itself.
  console.log(
    `ratio double / echo: ${qpsRatio.toFixed(2)}× in queries/s, ${cpuRatio.toFixed(2)}× in server CPU per query`,
  );
  if (withKnot) console.log(`ratio double / Knot: ${knotRatio(double, knot)} (goal ≥ 0.5×)`);
  else console.log('Knot DNS not installed (Debian package knot): no side-by-side row');

  // dnsperf (Debian `dnsperf`), the load generator: C, so it does not bound the servers the
  // way one Node socket can.
  if (withKnot && existsSync(DNSPERF)) {
    const dir = mkdtempSync(join(tmpdir(), 'dns-wire-bench-'));
    const file = join(dir, 'queries.txt');
    const lines = messages.map((m) => packet.decode(m).questions![0]!).map((q) => `${q.name} ${q.type}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    for (const mode of ['udp', 'tcp'] as const) {
      const perf = (port: number) => dnsperf(port, file, mode);
      const d: Round[] = [];
      const k: Round[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        d.push(await round('double', perf));
        k.push(await round('knot', perf));
      }
      console.log(
        `\nDNS wire: ${mode.toUpperCase()} queries per second under dnsperf (-m ${mode} -c 1 -T 1 -q 100, ${ROUNDS} rounds of ${DNSPERF_SECONDS} s, median)`,
      );
      console.table([row('double (serveDns + answer cache)', d), row('Knot DNS (knotd, 1 worker)', k)]);
      console.log(
        `ratio double / Knot under dnsperf over ${mode.toUpperCase()}: ${knotRatio(d, k)}${mode === 'udp' ? ' (goal ≥ 0.5×)' : ''}`,
      );
    }
    rmSync(dir, { recursive: true, force: true });
  }

  const api = benchZone();
  const decoded = messages.map((m) => packet.decode(m).questions![0]!);
  const answerer = (q: { name: string; type: string }) => api.answer(q);
  const rows = [perQuery('api.answer (resolution only)', 100_000, (i) => api.answer(decoded[i % decoded.length]!))];
  // respond() is synchronous with a synchronous answerer (DnsApi.answer), as the server calls it per datagram.
  rows.push(
    perQuery('respond (decode + answer + encode, no socket)', 50_000, (i) =>
      respond(messages[i % messages.length]!, answerer, { transport: 'udp' }),
    ),
  );
  const cache = new DnsAnswerCache(() => api.answerState());
  rows.push(
    perQuery('respond with the answer cache (hits, no socket)', 100_000, (i) =>
      respond(messages[i % messages.length]!, answerer, { transport: 'udp', cache }),
    ),
  );
  console.log('\nDNS wire: in-process paths per query');
  console.table(rows);
  await benchSigning();
}

/**
 * What signing costs per answer, in process: the same DO questions (A records that exist, some TXT,
 * some names that do not: one RRSIG, or two with the NSEC of a denial) to the zone unsigned, signed
 * anew each time (the clock moved past the five minutes a signature is given again), and with the
 * signatures given again; and `respond` with the answer cache on the half-DO mix, whose hits are
 * signed answers kept.
 */
async function benchSigning(): Promise<void> {
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const signedApi = benchZone(clock);
  await signBenchZone(signedApi);
  const unsigned = benchZone();
  const asked = queries().map((m) => ({ ...packet.decode(m).questions![0]!, dnssecOk: true }));
  const perAnswer = async (label: string, api: DnsApi, n: number, before?: () => void) => {
    for (let i = 0; i < 500; i++) await api.answer(asked[i % asked.length]!); // warm up
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      before?.();
      await api.answer(asked[i % asked.length]!);
    }
    return { path: label, 'µs/query': (((performance.now() - start) * 1000) / n).toFixed(2) };
  };
  const rows = [
    await perAnswer('api.answer, DO, zone unsigned', unsigned, 20_000),
    await perAnswer('api.answer, DO, zone signed: every answer signed anew', signedApi, 3_000, () =>
      clock.advance(5 * 60_000),
    ),
    await perAnswer('api.answer, DO, zone signed: signatures given again', signedApi, 20_000),
  ];
  const halfSigned = queries(true);
  const cache = new DnsAnswerCache(() => signedApi.answerState());
  const answerer = (q: { name: string; type: string; dnssecOk?: boolean }) => signedApi.answer(q);
  for (let i = 0; i < halfSigned.length; i++) await respond(halfSigned[i]!, answerer, { transport: 'udp', cache });
  const start = performance.now();
  const n = 50_000;
  for (let i = 0; i < n; i++) await respond(halfSigned[i % halfSigned.length]!, answerer, { transport: 'udp', cache });
  rows.push({
    path: `respond with the answer cache, half DO, zone signed (${cache.hits} hits, ${cache.misses} misses)`,
    'µs/query': (((performance.now() - start) * 1000) / n).toFixed(2),
  });
  console.log('\nDNS wire: signing per answer, in process (DO set; the answer cache on the half-DO mix)');
  console.table(rows);
}
