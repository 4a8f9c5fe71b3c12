/**
 * One entry list: package.json "exports" (and `bin`), read by scripts/entries.mjs, which tsup, the
 * Vitest aliases, TypeDoc, the API report and the layering check import. tsconfig.json is JSON and
 * cannot import it, so its `paths` are held to the list here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildEntries, entries } from '../../scripts/entries.mjs';

const root = new URL('../../', import.meta.url);
const json = (file: string) => JSON.parse(readFileSync(new URL(file, root), 'utf8'));

describe('the package entries', () => {
  it("tsconfig.json's paths name every public entry's source, and nothing else", () => {
    const paths = json('tsconfig.json').compilerOptions.paths as Record<string, string[]>;
    expect(paths).toEqual(Object.fromEntries(entries().map((e) => [e.specifier, [`./${e.source}`]])));
  });

  it('reads every subpath of "exports", with a source that exists, and the bin', () => {
    const pkg = json('package.json');
    const subpaths = Object.keys(pkg.exports).filter((s) => s !== './package.json');
    expect(entries().map((e) => e.subpath)).toEqual(subpaths);
    expect(buildEntries().at(-1)).toMatchObject({ name: 'cli', dist: 'cli', source: 'lib/node/cli.ts' });
    for (const e of buildEntries()) expect(() => readFileSync(new URL(e.source, root))).not.toThrow();
  });

  it('maps each subpath to its source and built file by one rule', () => {
    const bySubpath = Object.fromEntries(entries().map((e) => [e.subpath, [e.source, e.dist]]));
    expect(bySubpath['.']).toEqual(['lib/index.ts', 'index']);
    expect(bySubpath['./bucket']).toEqual(['lib/bucket.ts', 'bucket']);
    expect(bySubpath['./vitest']).toEqual(['lib/vitest.ts', 'vitest']);
    expect(bySubpath['./conformance/portable']).toEqual(['conformance/portable.ts', 'conformance-portable']);
  });
});
