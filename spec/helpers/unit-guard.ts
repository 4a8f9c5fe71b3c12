/**
 * The unit layer's one rule, enforced (vitest.config.ts, project `unit`): a unit test starts no
 * server, process or browser. Listening on a socket, binding a UDP socket or spawning a process
 * throws, naming the rule, so a test that needs one is moved to the integration layer
 * (`integration` in vitest.config.ts) rather than slowing the loop everyone runs.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const refuse = (what: string) => () => {
  throw new Error(
    `a unit test ${what}: list the file in vitest.config.ts's integration layer (CONTRIBUTING.md, "Test layers")`,
  );
};

const net = require('node:net') as typeof import('node:net');
const dgram = require('node:dgram') as typeof import('node:dgram');
const childProcess = require('node:child_process') as typeof import('node:child_process');
const workers = require('node:worker_threads') as typeof import('node:worker_threads');

net.Server.prototype.listen = refuse('listens on a socket') as never;
dgram.Socket.prototype.bind = refuse('binds a UDP socket') as never;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as Record<string, unknown>)[name] = refuse(`starts a process (child_process.${name})`);
}
(workers as { Worker: unknown }).Worker = class {
  constructor() {
    refuse('starts a worker thread')();
  }
};
syncBuiltinESMExports();
