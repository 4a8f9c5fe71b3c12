/**
 * The README, docs/ and ARCHITECTURE.md, checked as one (issue 29): the one snippet mechanism, the
 * links, the README's length and commands, and the declared-differences tables.
 *
 * Snippets: every TypeScript block is preceded by `<!-- snippet: <file>#<region> -->` and is the
 * region of that file between `// README: <region>` and `// README: end` (dedented), in a file a
 * test runs. A block of any other language may be a whole file: `<!-- snippet: <file> -->`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bucketDifferences } from '../conformance/bucket/differences.js';
import { describe as describeGraph, folderGraph, runtimeImports } from '../scripts/import-graph.js';
import { s3Differences } from '../conformance/s3/differences.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const pages = [
  'README.md',
  'ARCHITECTURE.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = (page: string) => readFileSync(join(root, page), 'utf8');

/** The lines of `file` between `// README: <name>` and `// README: end`, without their common indent. */
function region(file: string, name: string): string {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `// README: ${name}`);
  if (start < 0) throw new Error(`no region "${name}" in ${file}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === '// README: end');
  if (end < 0) throw new Error(`region "${name}" in ${file} has no "// README: end"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return body.map((l) => l.slice(indent)).join('\n');
}

interface Block {
  page: string;
  line: number;
  lang: string;
  code: string;
  /** The `<!-- snippet: … -->` right before the block (blank lines allowed between), if any. */
  source?: string;
}

/** Every fenced block of a page, with the snippet marker that names its source. */
function blocks(page: string): Block[] {
  const lines = text(page).split('\n');
  const found: Block[] = [];
  let marker: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = /^<!-- snippet: (\S+) -->$/.exec(line);
    if (m) {
      marker = m[1];
      continue;
    }
    const fence = /^```(\S*)$/.exec(line);
    if (fence) {
      const end = lines.findIndex((l, j) => j > i && l === '```');
      found.push({ page, line: i + 1, lang: fence[1]!, code: lines.slice(i + 1, end).join('\n'), source: marker });
      i = end;
    }
    if (line.trim()) marker = undefined;
  }
  return found;
}

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
  const all = pages.flatMap(blocks);

  it('has snippets to check', () => {
    expect(all.filter((b) => b.source).length).toBeGreaterThanOrEqual(40);
  });

  for (const b of all.filter((b) => ['ts', 'typescript', 'tsx', 'js', 'javascript'].includes(b.lang))) {
    it(`${b.page}:${b.line} is a region of a file a test runs`, () => {
      expect(b.source, 'a TypeScript block needs <!-- snippet: file#region --> before it').toMatch(/#/);
      const [file, name] = b.source!.split('#');
      expect(b.code).toBe(region(file!, name!));
    });
  }

  for (const b of all.filter((b) => b.source && !b.source.includes('#'))) {
    it(`${b.page}:${b.line} is the whole of ${b.source}`, () => {
      expect(`${b.code}\n`).toBe(text(b.source!));
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
        if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchors(relative(root, target)).has(anchor))
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
    expect(shown, 'paste the output of `npx tsx scripts/import-graph.ts` into ARCHITECTURE.md').toBe(describeGraph(folderGraph(runtimeImports(root))));
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
