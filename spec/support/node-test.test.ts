/**
 * The plain assertions and the clock under node:test itself (a child `node --test` process, the
 * TypeScript loaded through tsx as the repository's bench does).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('spec/support/fixtures/node-test.ts passes under node --test', async () => {
  const file = fileURLToPath(new URL('./fixtures/node-test.ts', import.meta.url));
  const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=tap', file],
      { cwd: fileURLToPath(new URL('../../', import.meta.url)) },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
  expect(result.out).toMatch(/# pass 3\b/);
  expect(result.code, result.out).toBe(0);
}, 60_000);
