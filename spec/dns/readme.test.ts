import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// README.md's DNS snippets are copies of test regions (`// README: <name>` … `// README: end`).
const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

function region(file: string, name: string): string {
  const lines = readFileSync(`${root}${file}`, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `// README: ${name}`);
  if (start < 0) throw new Error(`no region ${name} in ${file}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === '// README: end');
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return body.map((l) => l.slice(indent)).join('\n');
}

const snippets = [...readme.matchAll(/<!-- snippet: (\S+)#(\S+) -->\n```ts\n([\s\S]*?)\n```/g)];

describe('README.md (DNS)', () => {
  it('has snippets to check', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(6);
  });
  for (const [, file, name, code] of snippets) {
    it(`snippet ${file}#${name} is the test's code`, () => {
      expect(code).toBe(region(file!, name!));
    });
  }
});
