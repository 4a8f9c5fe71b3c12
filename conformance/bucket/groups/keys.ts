import { expect } from 'vitest';
import { defineGroup } from '../harness.js';

export const keys = defineGroup('keys', (t) => {
  t.test('a key of 1024 UTF-8 bytes is stored; 1025 gives 10020', async () => {
    const b = await t.bucket();
    await b.put('x'.repeat(1024), 'v');
    expect((await b.head('x'.repeat(1024)))?.size).toBe(1);
    await expect(b.put('x'.repeat(1025), 'v')).rejects.toThrow('put: The specified object name is not valid. (10020)');
  });
});
