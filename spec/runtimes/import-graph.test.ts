/**
 * What each entry loads as it is imported, read from the package's ESM as built: the entry's file
 * and every chunk it imports statically; what only an `import()` reaches is loaded on first use
 * (scripts/import-graph.ts reads both). Importing the package cost a suite more than the rest of its
 * set-up (docs/benchmarks.md, "A suite's wall time"): these hold the structure that keeps it low.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEsm } from '../../scripts/browser-bundle.js';
import { entries } from '../../scripts/entries.mjs';
import { loadedAtImport, loadedOnFirstUse } from '../../scripts/import-graph.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edge-doubles-imports-'));
  await buildEsm(dir, { graph: true });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const byName = new Map(entries().map((e) => [e.specifier, `${e.dist}.js`]));
const loaded = (specifier: string) => {
  const { files, packages, sources } = loadedAtImport(dir, byName.get(specifier)!);
  return { files, packages, sources: [...sources.keys()] };
};
const later = (specifier: string) => [...loadedOnFirstUse(dir, byName.get(specifier)!).sources.keys()];
const under = (sources: string[], prefix: string) => sources.filter((s) => s.startsWith(prefix));

describe('what an entry loads at import, as built', () => {
  it('the walk sees what it should: the root loads the bucket, S3 and DNS code and the bundled parsers', () => {
    const { sources } = loaded('edge-doubles');
    expect(sources).toContain('lib/bucket/bucket.ts');
    expect(sources).toContain('lib/s3/api.ts');
    expect(sources).toContain('lib/dns/zone.ts');
    // Bundled from this repository's node_modules, wherever that is (a worktree's may be elsewhere).
    expect(under(sources, 'node_modules/smol-toml/').length).toBeGreaterThan(0);
  });

  for (const { specifier } of entries()) {
    it(`${specifier} imports none of the parsers and codecs loaded on first use`, () => {
      const { packages } = loaded(specifier);
      for (const lazy of ['fast-xml-parser', 'dns-packet', 'selfsigned', 'web-streams-polyfill'])
        expect(packages, lazy).not.toContain(lazy);
    });

    it(`${specifier} imports the small synchronous dependencies bundled, not as packages`, () => {
      const named = [...loaded(specifier).packages].filter((p) =>
        /^(sorted-btree|smol-toml|jsonc-parser|@noble\/hashes)(\/|$)/.test(p),
      );
      expect(named).toEqual([]);
    });
  }

  it('edge-doubles/bucket loads no S3 view, DNS model, config parsing or conformance suite', () => {
    const { sources } = loaded('edge-doubles/bucket');
    expect(sources).toContain('lib/bucket/bucket.ts');
    // But toHaveDnsRecord's check, 2 kB over the test support, which shares /vitest's file with the
    // bucket's matcher so that the root loads one file less (scripts/chunking.ts).
    const model = sources.filter((s) => s !== 'lib/dns/record-matcher.ts');
    for (const prefix of ['lib/s3/', 'lib/dns/', 'lib/env/', 'conformance/', 'node_modules/smol-toml/'])
      expect(under(model, prefix), prefix).toEqual([]);
  });

  it('the API doubles load their route tables on the first request, not at import', () => {
    const { sources } = loaded('edge-doubles');
    for (const routes of [
      'lib/r2-api/routes.ts',
      'lib/queue/routes.ts',
      'lib/dns/routes.ts',
      'lib/account/routes.ts',
    ]) {
      expect(sources, routes).not.toContain(routes);
      expect(later('edge-doubles'), routes).toContain(routes);
    }
  });

  it("S3Api's request pipeline loads with its first request, not at import", () => {
    for (const specifier of ['edge-doubles', 'edge-doubles/s3']) {
      const { sources } = loaded(specifier);
      expect(sources, specifier).toContain('lib/s3/api.ts');
      for (const pipeline of ['lib/s3/serve.ts', 'lib/s3/objects.ts', 'lib/s3/multipart.ts', 'lib/s3/listing.ts']) {
        expect(sources, `${specifier}: ${pipeline}`).not.toContain(pipeline);
        expect(later(specifier), `${specifier}: ${pipeline}`).toContain(pipeline);
      }
    }
  });

  // Each file an import loads costs it more than its bytes (scripts/chunking.ts): at most these many,
  // where esbuild alone cut the root's code into 35 files and /bucket's into 16 (and the root's into
  // 10 before the small entries reached the few modules that cut it further).
  it.each([
    ['edge-doubles', 6],
    ['edge-doubles/bucket', 4],
    ['edge-doubles/queue', 3],
    ['edge-doubles/vitest', 3],
    ['edge-doubles/node', 7],
  ])('%s loads its code in at most %i files', (specifier, most) => {
    expect(loaded(specifier).files.length).toBeLessThanOrEqual(most);
  });

  it("edge-doubles/dns and /s3 take the root's classes from the root's file", () => {
    for (const specifier of ['edge-doubles/dns', 'edge-doubles/s3']) {
      const { files } = loaded(specifier);
      expect(files, specifier).toContain(byName.get('edge-doubles'));
      expect(files.length, specifier).toBeLessThanOrEqual(loaded('edge-doubles').files.length + 2);
    }
  });

  it("edge-doubles/node loads its servers' HTTP and stream modules, the DNS port and TLS on first use", () => {
    const { sources, packages } = loaded('edge-doubles/node');
    expect(sources).not.toContain('lib/node/dns-wire.ts');
    expect(sources).not.toContain('lib/node/dns-message.ts');
    expect(later('edge-doubles/node')).toContain('lib/node/dns-wire.ts');
    expect([...packages].filter((p) => /^(node:)?(https?|tls|dgram|stream(\/promises)?)$/.test(p))).toEqual([]);
  });
});
