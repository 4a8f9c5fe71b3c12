/**
 * Runs the Python example (conftest.py, test_edge_doubles.py) with pytest, against this
 * repository's `edge-doubles` (its source, through tsx), as `npm test` runs every example. Needs a
 * python3 importing pytest, boto3 and the Cloudflare library (Debian python3-pytest, python3-boto3,
 * python3-cloudflare); without them it skips naming the packages, except in CI (CI=true), which
 * installs them (.ci/run).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pythonFor } from '../../spec/dns/clients/python.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const PACKAGES = 'python3-pytest, python3-boto3 and python3-cloudflare';
const python = pythonFor(['pytest', 'boto3', 'CloudFlare'], PACKAGES);
// The CLI from source on the runtime running this test: Node and Bun take tsx's loader; Deno runs
// TypeScript itself, given its permissions and `.js` imports of `.ts` files (CI runs the examples on each).
const cli =
  'Deno' in globalThis
    ? `${process.execPath} run -A --sloppy-imports --no-check ${root}lib/node/cli.ts`
    : `${process.execPath} --import tsx ${root}lib/node/cli.ts`;

describe('the Python example: pytest against edge-doubles api serve --clock manual', () => {
  it.skipIf(!python)(
    `passes every test (skipped where no python3 imports pytest, boto3 and CloudFlare: Debian ${PACKAGES})`,
    async () => {
      const result = await run(python!.bin, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', here], {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? root,
          PYTHONDONTWRITEBYTECODE: '1',
          EDGE_DOUBLES: cli,
        },
        timeout: 120_000,
      }).catch((e: { stdout?: string; stderr?: string; message: string }) => ({
        stdout: `${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`,
        failed: true,
      }));
      expect(result.stdout).toMatch(/\b5 passed\b/);
      expect('failed' in result).toBe(false);
    },
    150_000,
  );
});
