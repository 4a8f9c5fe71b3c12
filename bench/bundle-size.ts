/**
 * `npm run bench -- size` (or `npx tsx bench/bundle-size.ts`): what each double adds to a browser
 * bundle. The package is built with its own tsup config, then each subpath is bundled from the
 * built ESM for the browser with its dependencies (esbuild, minified) and gzipped, as a user's
 * bundler would ship it. What an `import()` loads on first use is counted apart: the streams
 * ponyfill (only where a runtime lacks byte streams), the API doubles' route tables, S3's pipeline.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserEntries, buildEsm, bundleForBrowser } from '../scripts/browser-bundle.js';

/** The doubles a user imports one by one; `edge-doubles/s3` joins when the package has it. */
const MEASURED = ['edge-doubles/bucket', 'edge-doubles/dns', 'edge-doubles/s3'];

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

export async function benchBundleSize(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-size-'));
  try {
    await buildEsm(dir);
    const entries = browserEntries().filter((e) => MEASURED.includes(e.subpath) && existsSync(join(dir, e.file)));
    console.log('\n## bundle size (browser, minified, with dependencies; esbuild)\n');
    console.log('| entry | minified | gzipped | loaded on first use (import()), gzipped |');
    console.log('|---|---|---|---|');
    for (const e of entries) {
      const b = await bundleForBrowser(join(dir, e.file), { minify: true });
      if (b.nodeImports.length) throw new Error(`${e.subpath} pulls in Node modules: ${b.nodeImports.join(', ')}`);
      console.log(
        `| \`${e.subpath}\` | ${kB(b.bytes)} | ${kB(b.gzipBytes)} | ${b.lazyBytes ? kB(b.lazyGzipBytes) : '-'} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchBundleSize();
