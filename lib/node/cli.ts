#!/usr/bin/env node
/**
 * The `edge-doubles` command: `edge-doubles <service> <command> [options]`. Each service owns a
 * table of commands, so the bucket side can add `edge-doubles bucket ...` without touching DNS.
 */
import { runCli } from './commands.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`edge-doubles: ${(e as Error)?.message ?? e}\n`);
    process.exitCode = 1;
  },
);
