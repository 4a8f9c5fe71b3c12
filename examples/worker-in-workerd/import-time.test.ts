/**
 * A suite whose code copies `env.FILES` when it loads needs the swap at import time: the module
 * that swaps is imported first, so the copy is the double. This needs the plugin's default
 * isolation (a module graph per test file): under `--no-isolate` another file may have loaded
 * files-at-import.ts, with the real binding, before this one runs.
 */
// README: workerd-import-time
import { restore } from './swap-at-import.js'; // first: swaps env.FILES as this file loads
import { files } from './files-at-import.js'; // copies env.FILES when it loads: gets the double
// README: end
import { env } from 'cloudflare:workers';
import { afterAll, expect, it } from 'vitest';
import { Bucket } from 'edge-doubles';

afterAll(restore);

it('a copy taken at import time is the double when the swap came first', async () => {
  expect(files).toBeInstanceOf(Bucket);
  expect(files).toBe(env.FILES);
  await (files as Bucket).put('k', 'v');
  expect(await (env.FILES as Bucket).head('k')).not.toBeNull();
});
