/**
 * The README, docs/ and ARCHITECTURE.md, checked as one (issue 29): the one snippet mechanism
 * (scripts/snippets.ts: every TypeScript or JavaScript block is a region of a file a test runs; a
 * block of another language may be a whole file), the links, the README's length and commands,
 * ARCHITECTURE.md against lib/, and the declared-differences tables.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bucketDifferences } from '../conformance/bucket/differences.js';
import { s3Differences } from '../conformance/s3/differences.js';
import { describe as describeGraph, folderGraph, runtimeImports } from '../scripts/import-graph.js';
import { blocks, pages as snippetPages, source } from '../scripts/snippets.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const text = (page: string) => readFileSync(join(root, page), 'utf8');

/** GitHub's anchors for a page's headings (outside code blocks). */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text(page).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const h = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const slug = h[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

/** Every markdown link of a page outside code blocks: [text](target). */
function links(page: string): string[] {
  const prose = text(page).replace(/^```[\s\S]*?^```$/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('README and docs', () => {
  const pages = snippetPages(root);
  const all = pages.flatMap((page) => blocks(page, text(page)));
  const fix = 'a copy that drifted: `npx tsx scripts/snippets.ts` rewrites it from its file';

  it('has snippets to check', () => {
    expect(all.filter((b) => b.marker).length).toBeGreaterThanOrEqual(40);
  });

  for (const b of all.filter((b) => ['ts', 'typescript', 'tsx', 'js', 'javascript'].includes(b.lang))) {
    it(`${b.page}:${b.line} is a region of a file a test runs`, () => {
      expect(b.marker, 'a TypeScript or JavaScript block needs <!-- snippet: file#region --> before it').toMatch(/#/);
      expect(b.code, fix).toBe(source(root, b.marker!));
    });
  }

  for (const b of all.filter((b) => b.marker && !b.marker.includes('#'))) {
    it(`${b.page}:${b.line} is the whole of ${b.marker}`, () => {
      expect(b.code, fix).toBe(source(root, b.marker!));
    });
  }

  for (const page of pages) {
    it(`${page}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const link of links(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path ? resolve(root, dirname(page), decodeURIComponent(path)) : join(root, page);
        if (!existsSync(target)) {
          broken.push(`${link} (no ${relative(root, target)})`);
          continue;
        }
        if (
          anchor &&
          statSync(target).isFile() &&
          target.endsWith('.md') &&
          !anchors(relative(root, target)).has(anchor)
        )
          broken.push(`${link} (no heading #${anchor})`);
      }
      expect(broken).toEqual([]);
    });
  }

  it('README: at most 200 lines, with the two commands that set up a fresh clone', () => {
    const readme = text('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toContain('npm ci && npm test');
  });

  // ARCHITECTURE.md must match the code: every lib/ path it names exists, and it names every folder of lib/.
  it('ARCHITECTURE.md names lib/ as it is', () => {
    const page = text('ARCHITECTURE.md');
    const named = [...page.matchAll(/`(lib\/[\w./-]*)`/g)].map((m) => m[1]!);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
    const folders = readdirSync(join(root, 'lib'), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(folders.map((d) => `lib/${d.name}/`).filter((folder) => !page.includes(`\`${folder}\``))).toEqual([]);
  });

  it('ARCHITECTURE.md shows the import graph lib/ has', () => {
    const shown = /<!-- import-graph -->\n```text\n([\s\S]*?)\n```/.exec(text('ARCHITECTURE.md'))?.[1];
    expect(shown, 'paste the output of `npx tsx scripts/import-graph.ts` into ARCHITECTURE.md').toBe(
      describeGraph(folderGraph(runtimeImports(root))),
    );
  });

  // The differences are declared once, as data; the conformance page's tables must name each of them.
  it.each([
    ['bucket', bucketDifferences],
    ['S3', s3Differences],
  ])('docs/conformance.md lists every declared %s difference', (_, differences) => {
    const page = text('docs/conformance.md');
    for (const id of Object.keys(differences)) expect(page).toContain(`| \`${id}\` |`);
  });
});
