import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bucketDifferences } from '../conformance/bucket/differences.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  // The differences are declared once, as data; the README's table must name each of them.
  it('lists every declared bucket difference', () => {
    for (const id of Object.keys(bucketDifferences)) expect(readme).toContain(`| \`${id}\` |`);
  });

  it('shows the two commands that set up a fresh clone', () => {
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toContain('npm ci && npm test');
  });
});
