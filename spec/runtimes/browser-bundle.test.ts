/**
 * Bundle hygiene: the package's browser-facing subpaths, built as published and bundled for the
 * browser with their dependencies, import no Node built-in module (lib/ reaches node:crypto only
 * through process.getBuiltinModule, which a bundler does not follow).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserEntries, buildEsm, bundleForBrowser } from '../../scripts/browser-bundle.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edge-doubles-bundle-'));
  await buildEsm(dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the browser bundle', () => {
  const entries = browserEntries();

  it('covers every public subpath but the Node-only one', () => {
    expect(entries.map((e) => e.subpath)).toEqual(
      expect.arrayContaining([
        'edge-doubles',
        'edge-doubles/bucket',
        'edge-doubles/dns',
        'edge-doubles/conformance',
        'edge-doubles/vitest',
      ]),
    );
    expect(entries.map((e) => e.subpath)).not.toContain('edge-doubles/node');
  });

  for (const { subpath, file } of entries) {
    it(`of ${subpath} pulls in no Node module`, async () => {
      const bundle = await bundleForBrowser(join(dir, file));
      expect(bundle.nodeImports).toEqual([]);
      expect(bundle.bytes).toBeGreaterThan(0);
    }, 30_000);
  }

  it('check finds Node modules where they are: edge-doubles/node (the CLI server) imports them', async () => {
    const bundle = await bundleForBrowser(join(dir, 'node.js'));
    expect(bundle.nodeImports.length).toBeGreaterThan(0);
    expect(bundle.nodeImports.join('\n')).toMatch(/^(node:)?fs /m);
  }, 30_000);
});
