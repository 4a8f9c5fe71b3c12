import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeCursor } from '../../lib/bucket/cursor.js';

// decodeCursor copies how workerd's local R2 reads a cursor: `Buffer.from(cursor, 'base64')
// .toString('utf8')` in workerd's node:buffer. This runs that very call in workerd (Miniflare's) on
// seeded random strings of the characters that matter (both base64 alphabets, '=', whitespace,
// garbage, characters whose UTF-16 units have base64 or '=' as their low byte) and compares.
let mf: Miniflare;

beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    compatibilityDate: '2025-01-01',
    compatibilityFlags: ['nodejs_compat'],
    script: `import { Buffer } from 'node:buffer';
      export default { async fetch(request) {
        const cursors = await request.json();
        return Response.json(cursors.map((c) => Buffer.from(c, 'base64').toString('utf8')));
      } };`,
  });
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
});

it("decodes 5,000 random cursors exactly as workerd's Buffer does", async () => {
  const pool = [...'aZ09+/-_= \n\t!.,AQgw\u0000é😀ŁĀĽī\uFFFD\u0141\u013d'];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const cursors = Array.from({ length: 5000 }, () =>
    Array.from({ length: next(24) }, () => pool[next(pool.length)]).join(''),
  );
  const res = await mf.dispatchFetch('http://worker/', { method: 'POST', body: JSON.stringify(cursors) });
  const expected = (await res.json()) as string[];
  const mismatches = cursors.filter((c, i) => decodeCursor(c) !== expected[i]);
  expect(mismatches).toEqual([]);
}, 60_000);
