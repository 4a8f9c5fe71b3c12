// The matchers under `bun test`'s own expect: edge-doubles/vitest extends the `expect` of 'vitest',
// which bun test maps onto bun:test (copied next to the built package, run by ../runners.test.ts).
import { expect, test } from 'bun:test';
import 'edge-doubles/vitest';
import { Bucket } from 'edge-doubles';

test('toHaveObject passes and fails as under Vitest', async () => {
  const bucket = new Bucket({ seed: { 'a.txt': 'hello' } });
  expect(bucket).toHaveObject('a.txt', { body: 'hello' });
  expect(bucket).not.toHaveObject('b.txt');
  expect(() => expect(bucket).toHaveObject('a.txt', { body: 'bye' })).toThrow();
});
