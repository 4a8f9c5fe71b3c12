/**
 * Runs a fixture Worker in the real runtime: bundles it with tsup (everything inlined, one file,
 * since Miniflare's string `script` cannot import a chunk) and starts Miniflare on it, without
 * nodejs_compat, so lib/ takes the paths it takes on the edge. For specs proving lib/ runs in workerd.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { build } from 'tsup';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface WorkerdWorker {
  readonly mf: Miniflare;
  /** Miniflare's own origin (the Host header the Worker sees). */
  readonly origin: string;
  dispose(): Promise<void>;
}

/** `entry`: the fixture's path from the repository root. */
export async function startWorkerdWorker(entry: string): Promise<WorkerdWorker> {
  const out = mkdtempSync(join(tmpdir(), 'edge-doubles-workerd-'));
  try {
    await build({
      entry: { worker: join(root, entry) },
      outDir: out,
      format: ['esm'],
      platform: 'neutral',
      target: 'es2022',
      noExternal: [/.*/],
      splitting: false,
      dts: false,
      sourcemap: false,
      clean: false,
      silent: true,
      config: false,
    });
    const mf = new Miniflare({
      modules: true,
      script: readFileSync(join(out, 'worker.js'), 'utf8'),
      compatibilityDate: '2025-01-01',
    });
    const origin = (await mf.ready).origin;
    return {
      mf,
      origin,
      async dispose() {
        await mf.dispose();
        rmSync(out, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  }
}
