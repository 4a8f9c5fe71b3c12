/**
 * `npm run bench -- persist`: 1 KiB puts and gets over HTTP against `r2 serve` in memory, with
 * `--persist DIR` (a SQLite commit before each answer, not waited on to the disk: the default) and
 * with `--persist DIR --persist-sync` (each commit flushed to the disk before the answer), measured
 * in one run, the three alternating round by round. One client, requests in sequence on one
 * kept-alive connection (node:http), as a test suite drives a back end. The requests are signed
 * (aws4fetch) before the timing starts, so the figures are the server's and the connection's:
 * signing in the loop would add about 0.3 ms a request here and flatter the ratio.
 *
 * Two setups, each a table:
 * - the server in a process of its own (the CLI, as users run it for a suite in another language:
 *   the client is another process), on a Node with node:sqlite (scripts/runtimes.ts): the target,
 *   persisted put ≥ 0.8× in memory, is judged here. The CLI is the package as built
 *   (`dist/cli.js`, bench/suites/build.ts), what `npx edge-doubles` runs: through tsx, each start
 *   would also pay for compiling the TypeScript (about a second here), which no user pays;
 * - client and server in this one process (`runCli`): the server's CPU alone counts, with nothing
 *   overlapping it, so this is the stricter ratio, shown beside it (only when this Node has node:sqlite).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AwsClient } from 'aws4fetch';
import { runCli, type CliIo } from '../lib/node/commands.js';
import { sqliteNode } from '../scripts/runtimes.js';
import { buildPackage } from './suites/build.js';
import { consumer } from './suites/package.js';
import { median, opsPerSec, timeSequential } from './stats.js';
import { fmtRate, fmtRatio, judge, printTable, type TargetResult } from './table.js';

const OPS = 3000;
const KEYS = 100;
const ROUNDS = 5;
const BODY = new Uint8Array(1024).fill(7);

interface Mode {
  readonly name: string;
  readonly flags: (dir: string) => string[];
}

const MODES: readonly Mode[] = [
  { name: 'in memory', flags: () => [] },
  { name: '--persist (commit before answering)', flags: (dir) => ['--persist', dir] },
  { name: '--persist --persist-sync (fsync before answering)', flags: (dir) => ['--persist', dir, '--persist-sync'] },
];

interface Served {
  origin: string;
  stop(): Promise<void>;
}

const ARGS = ['r2', 'serve', '--port', '0', '--bucket', 'bench'];

/** Starts `r2 serve` in this process; resolves once it has printed its banner. */
async function inProcess(flags: string[]): Promise<Served> {
  const lines: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let ready!: () => void;
  const started = new Promise<void>((r) => (ready = r));
  const io: CliIo = {
    out: (l) => {
      lines.push(l);
      if (l.startsWith('state: ')) ready();
    },
    err: (l) => console.error(l),
    stopped: () => stopped,
  };
  const running = runCli([...ARGS, ...flags], io);
  await Promise.race([started, running.then(() => Promise.reject(new Error(`r2 serve ended: ${lines.join('\n')}`)))]);
  return {
    origin: /listening on (\S+)/.exec(lines[0]!)![1]!,
    stop: async () => {
      stop();
      await running;
    },
  };
}

/** Starts `r2 serve` as a process of its own (the built CLI), as users run it. */
const ownProcess = (flags: string[]) => cliProcess([...ARGS, ...flags]);

/** The package's bin as built and installed (`npx edge-doubles` runs it). */
const builtCli = `${consumer}node_modules/edge-doubles/dist/cli.js`;

/**
 * Starts `edge-doubles <args>` in a process of its own, the built CLI on a Node with node:sqlite;
 * resolves once it has printed its banner.
 */
async function cliProcess(args: string[]): Promise<Served> {
  const node = sqliteNode();
  if (!node.path) throw new Error(`bench persist: ${node.missing}`);
  const child = spawn(node.path, ['--disable-warning=ExperimentalWarning', builtCli, ...args], {
    cwd: consumer,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let origin = '';
  for await (const line of createInterface({ input: child.stdout! })) {
    origin ||= /listening on (\S+)/.exec(line)?.[1] ?? '';
    if (line.startsWith('state: ')) break;
  }
  if (!origin) throw new Error(`${args.join(' ')} printed no origin`);
  return {
    origin,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One server's put and get rates (ops/s). */
async function measure(server: Served, aws: AwsClient): Promise<{ put: number; get: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const signed = async (method: string, i: number) => {
    const r = await aws.sign(`${server.origin}/bench/k${i}`, { method, ...(method === 'PUT' ? { body: BODY } : {}) });
    return { method, path: new URL(r.url).pathname, headers: Object.fromEntries(r.headers) };
  };
  const putRequests = await Promise.all(Array.from({ length: KEYS }, (_, i) => signed('PUT', i)));
  const getRequests = await Promise.all(Array.from({ length: KEYS }, (_, i) => signed('GET', i)));
  const { port } = new URL(server.origin);
  const send = (r: { method: string; path: string; headers: Record<string, string> }, body?: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, agent, ...r }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${r.method} ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  try {
    // Warm the connection and the code paths.
    for (let i = 0; i < 500; i++) await send(putRequests[i % KEYS]!, BODY);
    const put = await timeSequential(OPS, (i) => send(putRequests[i % KEYS]!, BODY));
    const get = await timeSequential(OPS, (i) => send(getRequests[i % KEYS]!));
    return { put: opsPerSec(OPS, put), get: opsPerSec(OPS, get) };
  } finally {
    agent.destroy();
  }
}

async function runSetup(start: (flags: string[]) => Promise<Served>, aws: AwsClient, dirs: string[]) {
  const puts = new Map<string, number[]>(MODES.map((m) => [m.name, []]));
  const gets = new Map<string, number[]>(MODES.map((m) => [m.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) {
      const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-bench-persist-'));
      dirs.push(dir);
      const server = await start(mode.flags(dir));
      try {
        const { put, get } = await measure(server, aws);
        puts.get(mode.name)!.push(put);
        gets.get(mode.name)!.push(get);
      } finally {
        await server.stop();
      }
    }
  }
  return { puts, gets };
}

function table(
  title: string,
  results: TargetResult[] | undefined,
  { puts, gets }: Awaited<ReturnType<typeof runSetup>>,
): void {
  const base = MODES[0]!.name;
  const rows = MODES.map((m) => {
    const put = median(puts.get(m.name)!);
    const get = median(gets.get(m.name)!);
    const putRatio = put / median(puts.get(base)!);
    const getRatio = get / median(gets.get(base)!);
    const target =
      results && m.name.startsWith('--persist (')
        ? judge(results, 'persisted 1 KiB put over HTTP, server in its own process', '≥ 0.8× in memory', putRatio, 0.8)
        : '';
    return [m.name, fmtRate(put, 'put/s'), fmtRatio(putRatio), fmtRate(get, 'get/s'), fmtRatio(getRatio), target];
  });
  printTable(title, ['state', 'put', 'vs memory', 'get', 'vs memory', 'target'], rows, [
    'Default --persist: each write is a SQLite commit made before the answer, not waited on to the disk (survives kill -9, not a power loss).',
    '--persist-sync: every commit is flushed to the disk (fsync) before the answer.',
  ]);
}

const RESTART_OBJECTS = 20_000;
const RESTART_RECORDS = 5_000;

/**
 * How long `api serve --persist DIR` takes to start again on a DIR holding 20,000 objects (1 KiB) and
 * 5,000 DNS records: spawn to the banner's last line (the server then answers), median of three.
 */
async function restartTime(results: TargetResult[], dirs: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-bench-restart-'));
  dirs.push(dir);
  const args = ['api', 'serve', '--port', '0', '--bucket', 'bench', '--zone', 'example.com', '--plan', 'enterprise'];
  const first = await cliProcess([...args, '--persist', dir]);
  const text = 'x'.repeat(1024);
  for (let at = 0; at < RESTART_OBJECTS; at += 5000) {
    const objects = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`k${String(at + i).padStart(6, '0')}`, text]),
    );
    await admin(first.origin, 'seed', { buckets: { bench: objects } });
  }
  const records = Array.from({ length: RESTART_RECORDS }, (_, i) => ({
    type: 'A',
    name: `h${i}`,
    content: `198.51.100.${i % 250}`,
  }));
  await admin(first.origin, 'seed', { zones: { 'example.com': records } });
  await first.stop();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const again = await cliProcess(['api', 'serve', '--port', '0', '--persist', dir]);
    times.push(performance.now() - started);
    await again.stop();
  }
  const ms = median(times);
  const spawnOnly = median(
    await (async () => {
      const t: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const empty = await cliProcess(['api', 'serve', '--port', '0']);
        t.push(performance.now() - started);
        await empty.stop();
      }
      return t;
    })(),
  );
  const pass = ms < 1000;
  results.push({
    case: 'restart with 20,000 objects and 5,000 records',
    target: '< 1 s',
    measured: `${(ms / 1000).toFixed(2)} s`,
    pass,
  });
  const verdict = `< 1 s ${pass ? 'PASS' : 'MISS'}`;
  printTable(
    `api serve --persist started again on ${RESTART_OBJECTS.toLocaleString('en')} objects and ${RESTART_RECORDS.toLocaleString('en')} records (spawn to answering, median of 3)`,
    ['start', 'time', 'target'],
    [
      ['on that DIR', `${(ms / 1000).toFixed(2)} s`, verdict],
      ['in memory, nothing held (the process and its imports alone)', `${(spawnOnly / 1000).toFixed(2)} s`, ''],
    ],
  );
}

async function admin(origin: string, path: string, body: unknown): Promise<void> {
  const r = await fetch(`${new URL(origin).origin}/_edge-doubles/${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
}

export async function benchPersist(results: TargetResult[]): Promise<void> {
  const aws = new AwsClient({ accessKeyId: 'bench', secretAccessKey: 'bench', service: 's3', region: 'auto' });
  const dirs: string[] = [];
  await buildPackage();
  try {
    await restartTime(results, dirs);
    const own = await runSetup(ownProcess, aws, dirs);
    const each = `1 KiB objects, one client in sequence, median of ${ROUNDS} rounds of ${OPS}`;
    table(`r2 serve over HTTP, the server in a process of its own (as users run it): ${each}`, results, own);
    if (process.getBuiltinModule?.('node:sqlite') === undefined) {
      console.log(
        `(client and server in one process: skipped, node:sqlite needs Node 22.13 or later; this is ${process.version})`,
      );
      return;
    }
    const same = await runSetup(inProcess, aws, dirs);
    table(
      `r2 serve over HTTP, client and server in one process (the server's CPU alone: stricter): ${each}`,
      undefined,
      same,
    );
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
