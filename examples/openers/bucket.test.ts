/** docs/bucket.md's opening example, run as it reads (module-level code, checked below). */
import { expect, it } from 'vitest';
// README: bucket
import { Bucket } from 'edge-doubles/bucket'; // or from 'edge-doubles'

const env = { FILES: new Bucket() }; // wherever your Worker expects an R2Bucket
await env.FILES.put('notes/a.txt', 'hello', { httpMetadata: { contentType: 'text/plain' } });
const object = await env.FILES.get('notes/a.txt', { range: { suffix: 3 } });
const text = await object?.text(); // 'llo'
// README: end

it('reads the last three bytes with their metadata', () => {
  expect(text).toBe('llo');
  expect(object?.httpMetadata).toEqual({ contentType: 'text/plain' });
});
