import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bucketDifferences } from '../conformance/bucket/differences.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  // The differences are declared once, as data; the README's table must name each of them.
  it('lists every declared bucket difference', () => {
    for (const id of Object.keys(bucketDifferences)) expect(readme).toContain(`| \`${id}\` |`);
  });

  // The expiry example is copied from a passing test: it must stay a copy.
  it('shows the multipart expiry test exactly as examples/worker/worker.test.ts has it', () => {
    const section = readme.slice(readme.indexOf('### Time: the 7-day multipart expiry'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const source = readFileSync(new URL('../examples/worker/worker.test.ts', import.meta.url), 'utf8');
    expect(snippet).toContain('vi.advanceTimersByTime(7 * 24 * 60 * 60 * 1000)');
    expect(source).toContain(snippet);
  });

  // The control-plane example is copied from a passing test (examples/control-plane/): it must stay a copy.
  it('shows the control-plane example exactly as examples/control-plane/worker.test.ts has it', () => {
    const section = readme.slice(readme.indexOf('## The control plane'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const source = readFileSync(new URL('../examples/control-plane/worker.test.ts', import.meta.url), 'utf8');
    expect(snippet).toContain("wrangler('r2', 'bucket', 'create', 'uploads'");
    expect(source).toContain(snippet);
  });

  // The DNS-over-the-wire example is copied from a passing test (examples/dns-resolve/): it must stay a copy.
  it('shows the DNS resolution example exactly as examples/dns-resolve/resolve.test.ts has it', () => {
    const section = readme.slice(readme.indexOf('### The zone over real DNS'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const source = readFileSync(new URL('../examples/dns-resolve/resolve.test.ts', import.meta.url), 'utf8');
    expect(snippet).toContain("resolver.resolveTxt('_acme-challenge.example.com')");
    expect(source).toContain(snippet);
  });

  // The Queues and event-notification snippets are copies of passing tests (between their `// README:` markers).
  it.each([
    ['## Queues', '../spec/queue/readme.test.ts', 'queues'],
    ['## Event notifications', '../examples/r2-events/worker.test.ts', 'r2-events'],
  ])('shows the snippet under %s exactly as %s has it', (heading, file, marker) => {
    const section = readme.slice(readme.indexOf(heading));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    const marked = source.slice(source.indexOf(`// README: ${marker}\n`) + `// README: ${marker}\n`.length, source.indexOf('// README: end'));
    expect(snippet).toBe(marked);
  });

  it('shows the two commands that set up a fresh clone', () => {
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toContain('npm ci && npm test');
  });
});
