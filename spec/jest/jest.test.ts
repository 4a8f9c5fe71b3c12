/**
 * The built package under Jest 30, as a Worker project that tests with Jest uses it: the project in
 * ./consumer runs in Jest's default mode (CommonJS: plain `require` and ts-jest) and in its ESM mode
 * (`node --experimental-vm-modules`). The package is built once per run, JavaScript only, with the
 * package's own tsup configs, into .jest-package/node_modules/edge-doubles (gitignored), where the
 * consumer finds it by name and its dependencies resolve from this repository's node_modules.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { installBuiltPackage, repoRoot as root } from '../helpers/built-package.js';
import { expectSuitePassed } from '../helpers/suite-output.js';

const consumer = fileURLToPath(new URL('./consumer/', import.meta.url));
const jestBin = `${root}node_modules/jest/bin/jest.js`;

beforeAll(() => installBuiltPackage('.jest-package'), 120_000);

/** Runs this Node in the consumer project, without this run's NODE_OPTIONS (its loaders); resolves with the exit code and output. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: consumer, env: { ...process.env, NODE_OPTIONS: '', ...env } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

/** Runs Jest on the consumer project with one of its configs. */
const jest = (config: string, nodeOptions: string[] = [], args: string[] = []) =>
  run([...nodeOptions, jestBin, '--config', `${consumer}${config}`, '--ci', '--colors=false', ...args]);

describe('the built package under Jest 30', () => {
  // Node before 20.19 cannot require an ES module, as Jest's module system cannot: the flag gives
  // this Node that behaviour. Each Node-facing subpath loads (vitest and conformance need Vitest).
  it('loads under a plain require without require(esm)', async () => {
    const subpaths = [
      'edge-doubles',
      'edge-doubles/bucket',
      'edge-doubles/dns',
      'edge-doubles/s3',
      'edge-doubles/node',
    ];
    const script = `for (const p of ${JSON.stringify(subpaths)}) require(p); const { Bucket } = require('edge-doubles');
      new Bucket().put('a', 'hello').then((o) => console.log(o.etag));`;
    const { code, out } = await run(['--no-experimental-require-module', '-e', script], {
      NODE_PATH: `${root}.jest-package/node_modules`,
    });
    expect(out.trim()).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(code, out).toBe(0);
  });

  it('loads in the default CommonJS mode, from JavaScript and from ts-jest', async () => {
    const { code, out } = await jest('jest.config.cjs');
    expect(out).toMatch(/Tests: +5 passed, 5 total/);
    expect(code, out).toBe(0);
  }, 120_000);

  it('loads in the ESM mode (--experimental-vm-modules)', async () => {
    const { code, out } = await jest('jest.esm.config.cjs', ['--experimental-vm-modules', '--no-warnings']);
    expect(out).toMatch(/Tests: +3 passed, 3 total/);
    expect(code, out).toBe(0);
  }, 120_000);

  // The suite registered with Jest's describe/it/expect through edge-doubles/conformance/portable:
  // the same results table as conformance:double (its one declared difference fails as declared).
  it.each([
    ['CommonJS', 'jest.config.cjs', [], 'conformance.cjs'],
    ['ESM', 'jest.esm.config.cjs', ['--experimental-vm-modules', '--no-warnings'], 'conformance.mjs'],
  ])(
    'runs the bucket conformance suite in the %s mode, with the same results table',
    async (_mode, config, nodeOptions, file) => {
      const result = await jest(config, nodeOptions, ['--testMatch', `<rootDir>/${file}`]);
      expect(result.out).not.toMatch(/Tests:.*failed/);
      expectSuitePassed(result, 2);
    },
    180_000,
  );
});
