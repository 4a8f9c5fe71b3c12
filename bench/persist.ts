/**
 * `npm run bench -- persist`: 1 KiB puts and gets over HTTP against `r2 serve` (the CLI, run in this
 * process with `runCli`) in memory, with `--persist DIR` (commit before each answer, LMDB without
 * waiting for the disk: the default) and with `--persist DIR --persist-sync` (each commit flushed
 * to the disk before the answer), measured in one run, the three alternating round by round. One
 * client, requests in sequence on a kept-alive connection, signed once per request (aws4fetch), as a
 * test suite drives a back end. Issue 27's target: persisted put ≥ 0.5× in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsClient } from 'aws4fetch';
import { runCli, type CliIo } from '../lib/node/index.js';
import { median, opsPerSec, timeSequential } from './stats.js';
import { fmtRate, fmtRatio, judge, printTable, type TargetResult } from './table.js';

const OPS = 1000;
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

/** Starts `r2 serve` in process; resolves with its origin and a stop. */
async function serve(flags: string[]): Promise<{ origin: string; stop: () => Promise<void> }> {
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
  const running = runCli(['r2', 'serve', '--port', '0', '--bucket', 'bench', ...flags], io);
  await Promise.race([started, running.then(() => Promise.reject(new Error(`r2 serve ended: ${lines.join('\n')}`)))]);
  const origin = /listening on (\S+)/.exec(lines[0]!)![1]!;
  return {
    origin,
    stop: async () => {
      stop();
      await running;
    },
  };
}

export async function benchPersist(results: TargetResult[]): Promise<void> {
  const aws = new AwsClient({ accessKeyId: 'bench', secretAccessKey: 'bench', service: 's3', region: 'auto' });
  const puts = new Map<string, number[]>();
  const gets = new Map<string, number[]>();
  const dirs: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-bench-persist-'));
        dirs.push(dir);
        const server = await serve(mode.flags(dir));
        try {
          const url = (i: number) => `${server.origin}/bench/k${i % 100}`;
          // Warm the connection and the code paths.
          for (let i = 0; i < 50; i++) await (await aws.fetch(url(i), { method: 'PUT', body: BODY })).arrayBuffer();
          const put = await timeSequential(OPS, async (i) => {
            const r = await aws.fetch(url(i), { method: 'PUT', body: BODY });
            await r.arrayBuffer();
            if (r.status !== 200) throw new Error(`put ${r.status}`);
          });
          const get = await timeSequential(OPS, async (i) => {
            const r = await aws.fetch(url(i));
            await r.arrayBuffer();
            if (r.status !== 200) throw new Error(`get ${r.status}`);
          });
          (puts.get(mode.name) ?? puts.set(mode.name, []).get(mode.name)!).push(opsPerSec(OPS, put));
          (gets.get(mode.name) ?? gets.set(mode.name, []).get(mode.name)!).push(opsPerSec(OPS, get));
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  const base = MODES[0]!.name;
  const rows = MODES.map((m) => {
    const put = median(puts.get(m.name)!);
    const get = median(gets.get(m.name)!);
    const putRatio = put / median(puts.get(base)!);
    const getRatio = get / median(gets.get(base)!);
    const target = m.name.startsWith('--persist (') ? judge(results, 'persisted 1 KiB put over HTTP', '≥ 0.5× in memory', putRatio, 0.5) : '';
    return [m.name, fmtRate(put, 'put/s'), fmtRatio(putRatio), fmtRate(get, 'get/s'), fmtRatio(getRatio), target];
  });
  printTable(
    `r2 serve over HTTP, 1 KiB objects, one client in sequence (median of ${ROUNDS} rounds of ${OPS} each)`,
    ['state', 'put', 'vs memory', 'get', 'vs memory', 'target'],
    rows,
    [
      'Default --persist: each write is an LMDB commit made before the answer, not waited on to the disk (survives kill -9, not a power loss).',
      '--persist-sync: every commit is flushed to the disk (fsync) before the answer.',
    ],
  );
}
