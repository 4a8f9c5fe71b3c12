/**
 * What changes outside a request (a queue's message sent or settled on a timer) is committed
 * because the queue says it changed, not because something polls: with the idle timer at an hour,
 * a server killed just after such a change still has it on restart.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { node } from '../../helpers/persisted-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const writer = fileURLToPath(new URL('./background-writer.ts', import.meta.url));
const run = promisify(execFile);
const maybe = node.missing ? describe.skip : describe;

maybe(`--persist: a change outside a request${node.missing ? ` (skipped: ${node.missing})` : ''}`, () => {
  it('is committed when the queue announces it, with nothing polling', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-background-'));
    try {
      const written = await run(node.path!, [...node.args, writer, 'write', dir], { cwd: root }).catch(
        (e: { stdout: string; signal: string }) => e,
      );
      expect(written.stdout).toBe('sent\n');
      expect((written as { signal?: string }).signal).toBe('SIGKILL');
      const { stdout } = await run(node.path!, [...node.args, writer, 'check', dir], { cwd: root });
      // One JSON message held: the one sent after the last request's commit.
      expect(JSON.parse(stdout)).toEqual(['json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
