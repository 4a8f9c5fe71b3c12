/**
 * The README, docs/ and ARCHITECTURE.md, checked as one (issue 29): the one snippet mechanism
 * (scripts/snippets.ts: every TypeScript or JavaScript block is a region of a file a test runs; a
 * block of another language may be a whole file), the links, the README's length and commands,
 * ARCHITECTURE.md against lib/, and the declared-differences tables. And every tracked file's
 * citations (issue 33): what a comment or a page cites, a clone of the repository can follow.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bucketDifferences } from '../conformance/bucket/differences.js';
import { s3Differences } from '../conformance/s3/differences.js';
import { LAYERS } from '../.dependency-cruiser.mjs';
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

  // docs/sources/ holds no snippets, but its links are checked as the other pages' are.
  const sourcePages = readdirSync(join(root, 'docs/sources'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/sources/${f}`);
  for (const page of [...pages, ...sourcePages]) {
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

  it('ARCHITECTURE.md shows the layers dependency-cruiser holds lib/ to', () => {
    const table = /<!-- layers -->\n\| rank[^\n]*\n\|[-|]+\|\n((?:\|[^\n]*\n)+)/.exec(text('ARCHITECTURE.md'))?.[1];
    const shown = (table ?? '')
      .trim()
      .split('\n')
      .flatMap((row) => {
        const [rank, folders] = row.split('|').slice(1, 3);
        return [...folders!.matchAll(/`([\w-]+)`/g)].map((m) => [m[1]!, Number(rank)]);
      });
    expect(shown, 'ARCHITECTURE.md "What may import what" lists .dependency-cruiser.mjs LAYERS').toEqual(LAYERS);
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

/**
 * The repository's files, as paths from the root: every file outside node_modules and the build
 * folders. Walked rather than asked of git: the unit layer starts no process.
 */
function trackedFiles(): string[] {
  const ignored = new Set([
    '.git',
    'node_modules',
    'dist',
    'docs/api',
    '.browser-dist',
    '.jest-package',
    '.runners-package',
    '.bench-package',
    '.wrangler',
  ]);
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => {
      const path = dir ? `${dir}/${d.name}` : d.name;
      if (ignored.has(path) || d.isSymbolicLink()) return [];
      return d.isDirectory() ? walk(path) : [path];
    });
  return walk('');
}

/**
 * Documents a clone does not hold, which the project was built from: the outside design note, the
 * researched fact sheets and the two interface documents. Their facts are cited by their public
 * sources or restated in docs/sources/ (docs/sources/README.md says how); the layering rules are in
 * ARCHITECTURE.md.
 */
const OUTSIDE: [RegExp, string][] = [
  [/\.\.\/shared\b|\bshared\/(?:reference|spec)\//, 'a path outside the repository'],
  [/\bDESIGN\.md\b/, 'the outside design note: cite ARCHITECTURE.md'],
  [
    /\b(?:r2-semantics|r2-bucket-config|r2-s3-api|test-ergonomics)\b/,
    'an outside fact sheet: cite the public source, or docs/sources/',
  ],
  [/\b(?:dns-api|dns-wire)(?:\.md)? §|\breference §|§[\d.]+ of the reference/, 'a section of an outside fact sheet'],
  [
    /\b(?:bucket-binding|dns-records)-interface\b/,
    'an interface document, not published: docs/sources/README.md#the-interface-documents',
  ],
];

/** A path ending in `.md` (with its `#anchor`), outside URLs. */
const MD_PATH = /(?<![\w./-])((?:\.{1,2}\/)*[\w-][\w.-]*(?:\/[\w.-]+)*\.md)(?:#([\w-]+))?(?![\w-])/g;
const URL_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

/**
 * The citations of one file's text a clone cannot follow, as `file:line: why`: a document the
 * repository does not hold, or a `.md` path that is not in the repository (from the file's folder or
 * from the root), or a heading that page does not have.
 */
function unfollowable(file: string, content: string): string[] {
  const found: string[] = [];
  content.split('\n').forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    for (const [pattern, why] of OUTSIDE) if (pattern.test(line)) found.push(`${at}: ${why}: ${line.trim()}`);
    for (const m of line.replace(URL_TEXT, ' ').matchAll(MD_PATH)) {
      const [, path, anchor] = m as unknown as [string, string, string | undefined];
      const target = [resolve(root, dirname(file), path), resolve(root, path)].find(
        (t) => !relative(root, t).startsWith('..') && existsSync(t),
      );
      if (!target) found.push(`${at}: ${path} is not in the repository`);
      else if (anchor && statSync(target).isFile() && !anchors(relative(root, target)).has(anchor))
        found.push(`${at}: ${relative(root, target)} has no heading #${anchor}`);
    }
  });
  return found;
}

describe('citations a clone can follow (issue 33)', () => {
  // Recorded fixtures are kept as their tools wrote them; this file names the outside documents to find them.
  const files = trackedFiles().filter((f) => !/(^|\/)(node_modules|fixtures)\//.test(f) && f !== 'spec/docs.test.ts');

  it('has the tracked files to read', () => {
    expect(files).toContain('lib/index.ts');
    expect(files).toContain('docs/sources/README.md');
  });

  it('no tracked file cites a document the repository does not hold', () => {
    const found: string[] = [];
    for (const file of files) {
      const content = readFileSync(join(root, file), 'utf8');
      if (!content.includes('\0')) found.push(...unfollowable(file, content));
    }
    expect(found).toEqual([]);
  });

  it('finds such a citation where there is one, and not where the cited page is here', () => {
    const cited = [
      'see DESIGN.md, "The joints"',
      '(r2-semantics §1.1)',
      'the facts: ../shared/reference/dns-wire.md',
      '(dns-api.md §8)',
      'docs/sources/r2-binding.md#no-such-heading',
      'per the interface document (dns-records-interface.md)',
      'docs/sources/r2-binding.md#errors, docs/dns-api.md and [the plan](../../ARCHITECTURE.md#the-joints)',
    ];
    const lines = unfollowable('lib/bucket/example.ts', cited.join('\n')).map((f) => Number(f.split(':')[1]));
    expect([...new Set(lines)]).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
