/**
 * `edge-doubles dns serve` (or `api serve`) run as users run it (lib/node/cli.ts through tsx), for tests that drive
 * it from outside: the banner read up to the zone lines, the process stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServedCli {
  child: ChildProcess;
  /** The banner lines, up to and including the last `zone` line. */
  banner: string[];
  /** The API's base URL, from `listening on <url>`. */
  baseURL: string;
  /** The DNS port from `dns: udp+tcp 127.0.0.1:<port>`. */
  dnsPort: number;
  /** Zone name → id, from the `zone <name> <id>` lines. */
  zones: Map<string, string>;
  /** Every line printed after the banner (--log lines). */
  lines: string[];
  stop(): Promise<void>;
}

export async function serveCli(args: string[], zoneCount: number, command: 'dns' | 'api' = 'dns'): Promise<ServedCli> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'lib/node/cli.ts', command, 'serve', '--port', '0', '--dns-port', '0', ...args],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stderr: string[] = [];
  child.stderr!.on('data', (c: Buffer) => stderr.push(c.toString()));
  const reader = createInterface({ input: child.stdout! });
  const banner: string[] = [];
  const lines: string[] = [];
  const zones = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${command} serve exited ${code}: ${stderr.join('')}`)));
    reader.on('line', (line) => {
      if (zones.size === zoneCount) {
        lines.push(line);
        return;
      }
      banner.push(line);
      const zone = /^zone (\S+) (\S+)$/.exec(line);
      if (zone) zones.set(zone[1]!, zone[2]!);
      if (zones.size === zoneCount) resolve();
    });
  });
  const dns = banner.map((l) => /^dns: udp\+tcp 127\.0\.0\.1:(\d+)$/.exec(l)).find(Boolean);
  return {
    child,
    banner,
    baseURL: /listening on (\S+)/.exec(banner[0]!)![1]!,
    dnsPort: dns ? Number(dns[1]) : NaN,
    zones,
    lines,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}
