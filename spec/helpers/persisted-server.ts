/**
 * A server of the CLI (`edge-doubles <args>`) in a process of its own, as users run it with
 * `--persist`: on a Node that has node:sqlite (scripts/runtimes.ts), the banner awaited, stopped with
 * any signal. For the tests of what `--persist` keeps and how it fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sqliteNode } from '../../scripts/runtimes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The Node the servers run on; `missing` says why there is none. */
export const node = sqliteNode();

export interface Served {
  child: ChildProcess;
  lines: string[];
  origin: string;
  /** What the server printed on stderr so far. */
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Every server started here: killed when the test process ends, so a failed test leaves none running. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Runs `edge-doubles <args> --port 0`, unstarted: for a server expected to refuse to start. */
export function spawnCli(args: string[]): ChildProcess {
  const child = spawn(node.path!, [...node.args, 'lib/node/cli.ts', ...args, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Starts `edge-doubles <args>` and waits for its `state:` line (the last of the banner). */
export async function start(args: string[]): Promise<Served> {
  const child = spawnCli(args);
  const stderr: string[] = [];
  child.stderr!.on('data', (c: Buffer) => stderr.push(c.toString()));
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.join('')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('state: ')) resolve();
    });
  });
  const origin = new URL(/listening on (\S+)/.exec(lines[0]!)![1]!).origin;
  return {
    child,
    lines,
    origin,
    stderr: () => stderr.join(''),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await once(child, 'exit');
    },
  };
}
