/**
 * `npx tsx bench/server-memory.ts [repo root]`: what an unauthenticated 200 MiB PUT costs the
 * `r2 serve` process. The server runs in a child process (the CLI from the given checkout, this
 * one by default, so an older checkout gives the "before" figure); the client streams zeros from
 * this process and stops when the answer comes. Reported: the child's resident set before, its peak
 * (VmHWM) after, the answer's status and how many bytes the client had sent by then.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? fileURLToPath(new URL('../', import.meta.url));
const SIZE = 200 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024);

const kib = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const mib = (k: number) => `${(k / 1024).toFixed(1)} MiB`;

const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'lib/node/cli.ts',
    'r2',
    'serve',
    '--port',
    '0',
    '--bucket',
    'photos',
    '--access-key-id',
    'id',
    '--secret-access-key',
    'secret',
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
let origin = '';
for await (const line of createInterface({ input: child.stdout! })) {
  const m = /listening on (\S+)/.exec(line);
  if (m) {
    origin = m[1]!;
    break;
  }
}
await new Promise((r) => setTimeout(r, 500));
const before = kib(child.pid!, 'VmRSS');

const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve) => {
  let sent = 0;
  let answered: number | undefined;
  const req = request(
    `${origin}/photos/big.bin`,
    { method: 'PUT', headers: { 'content-length': String(SIZE) } },
    (res) => {
      answered = res.statusCode!;
      res.resume();
      res.on('end', () => resolve({ status: answered!, sent }));
    },
  );
  req.on('error', () => resolve({ status: answered ?? 0, sent }));
  const pump = () => {
    while (answered === undefined && sent < SIZE) {
      sent += CHUNK.length;
      if (!req.write(CHUNK)) return void req.once('drain', pump);
    }
    if (sent >= SIZE) req.end();
  };
  pump();
});
await new Promise((r) => setTimeout(r, 500));
const peak = kib(child.pid!, 'VmHWM');
child.kill('SIGTERM');

console.log(`checkout: ${root}`);
console.log(`answer: ${status}, after the client had sent ${mib(sent / 1024)} of ${mib(SIZE / 1024)}`);
console.log(`server RSS before: ${mib(before)}; peak after: ${mib(peak)}; growth: ${mib(peak - before)}`);
