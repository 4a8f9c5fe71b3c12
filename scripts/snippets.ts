/**
 * The one snippet mechanism of README.md, ARCHITECTURE.md and docs/ (issue 29): a code block right
 * after `<!-- snippet: <file>#<region> -->` is the region of `<file>` between `// README: <region>`
 * and `// README: end` (dedented); after `<!-- snippet: <file> -->`, the whole file.
 * spec/docs.test.ts checks every copy; `npx tsx scripts/snippets.ts` rewrites them from their files.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The pages that hold snippets, relative to the repository root. */
export function pages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
  return ['README.md', 'ARCHITECTURE.md', ...docs.map((f) => `docs/${f}`)];
}

/** The lines of `file` between `// README: <name>` and `// README: end`, without their common indent. */
export function region(root: string, file: string, name: string): string {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `// README: ${name}`);
  if (start < 0) throw new Error(`no region "${name}" in ${file}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === '// README: end');
  if (end < 0) throw new Error(`region "${name}" in ${file} has no "// README: end"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return body.map((l) => l.slice(indent)).join('\n');
}

/** What a snippet marker names: a region, or (without `#`) a whole file, whose last newline the block leaves out. */
export function source(root: string, marker: string): string {
  const [file, name] = marker.split('#') as [string, string | undefined];
  return name === undefined ? readFileSync(join(root, file), 'utf8').replace(/\n$/, '') : region(root, file, name);
}

export interface Block {
  page: string;
  /** The line of the opening fence, from 1. */
  line: number;
  lang: string;
  code: string;
  /** The `<!-- snippet: … -->` right before the block (blank lines allowed between), if any. */
  marker?: string;
}

/** Every fenced block of a page's text, with the snippet marker that names its source. */
export function blocks(page: string, text: string): Block[] {
  const lines = text.split('\n');
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
      found.push({ page, line: i + 1, lang: fence[1]!, code: lines.slice(i + 1, end).join('\n'), marker });
      i = end;
    }
    if (line.trim()) marker = undefined;
  }
  return found;
}

/** The page's text with every marked block replaced by its source. */
export function refreshed(root: string, text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let marker: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out.push(line);
    const m = /^<!-- snippet: (\S+) -->$/.exec(line);
    if (m) {
      marker = m[1];
      continue;
    }
    if (/^```\S*$/.test(line)) {
      const end = lines.findIndex((l, j) => j > i && l === '```');
      if (marker) out.push(...source(root, marker).split('\n'));
      else out.push(...lines.slice(i + 1, end));
      out.push('```');
      i = end;
    }
    if (line.trim()) marker = undefined;
  }
  return out.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(new URL('..', import.meta.url).pathname);
  for (const page of pages(root)) {
    const text = readFileSync(join(root, page), 'utf8');
    const next = refreshed(root, text);
    if (next !== text) {
      writeFileSync(join(root, page), next);
      console.log(`rewrote ${page}`);
    }
  }
}
