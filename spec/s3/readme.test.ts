import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { s3Differences } from '../../conformance/s3/differences.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## The S3 view (`edge-doubles/s3`)'), readme.indexOf('## The conformance suites'));

describe('README: the S3 view', () => {
  it('sits right before the conformance suites', () => {
    expect(readme.indexOf('## The S3 view')).toBeGreaterThan(0);
    expect(readme.indexOf('## The S3 view')).toBeLessThan(readme.indexOf('## The conformance suites'));
  });

  // The example is copied from a passing test: it must stay a copy.
  it('shows the presigned upload test exactly as examples/presigned-upload/worker.test.ts has it', () => {
    const part = section.slice(section.indexOf('### A presigned upload, end to end'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(part)![1]!;
    const source = readFileSync(new URL('../../examples/presigned-upload/worker.test.ts', import.meta.url), 'utf8');
    expect(snippet).toContain('r2.fetch(url, { method: \'PUT\'');
    expect(source).toContain(snippet);
  });

  it('lists every declared S3 difference', () => {
    for (const id of Object.keys(s3Differences)) expect(section).toContain(`| \`${id}\` |`);
  });
});
