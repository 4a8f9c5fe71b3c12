import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../lib/bucket/cursor.js';

// What workerd's local R2 makes of a cursor string: `Buffer.from(cursor, 'base64').toString('utf8')`
// run inside workerd (node:buffer). Each expected value below was printed by that call in workerd
// 1.20261023 (the vitest plugin's), and 20,000 random strings of these characters decoded the same.
const observedInWorkerd: [cursor: string, key: string][] = [
  ['bad', 'm\uFFFD'],
  ['!!!', ''],
  ['a2V5MQ==', 'key1'],
  ['a2V5MQ', 'key1'],
  ['a2V5M', 'key'],
  ['a2V', 'ke'],
  ['a', ''],
  ['a2V5MQ==a2V5Mg==', 'key1'],
  ['a-_', 'k\uFFFD'],
  [' a2V5Mg== ', 'key2'],
  ['a2V5\nMg==', 'key2'],
  ['é', ''],
  ['=a2V5Mg', ''],
  ['zz', '\uFFFD'],
  ['+/+/', '\uFFFD\uFFFD\uFFFD'],
];

describe('list cursors', () => {
  for (const [cursor, key] of observedInWorkerd) {
    it(`${JSON.stringify(cursor)} positions after ${JSON.stringify(key)}, as in workerd`, () => {
      expect(decodeCursor(cursor)).toBe(key);
    });
  }

  it("a character above U+00FF counts as its UTF-16 unit's low byte: 'Ł' (U+0141) is 'A', '😀' ends the cursor like '='", () => {
    expect(decodeCursor('\u0141\u0141\u0141\u0141')).toBe(decodeCursor('AAAA'));
    expect(decodeCursor('a2V5😀Mg==')).toBe('key');
  });

  it('the cursor of a key decodes to that key, whatever its characters', () => {
    for (const key of ['', 'a', 'key1', 'dir/é/😀', '\uFFFD', 'x'.repeat(1024)])
      expect(decodeCursor(encodeCursor(key))).toBe(key);
  });
});
