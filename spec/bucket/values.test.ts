/** How a put takes its value (lib/bucket/values.ts): copied within the call, whatever its kind. */
import { expect, it } from 'vitest';
import { Bucket } from '../../lib/bucket.js';

const bytesOf = async (bucket: Bucket, key: string) => new Uint8Array(await (await bucket.get(key))!.arrayBuffer());

it('a buffer changed as soon as put returns, before it resolves, is stored as it was when passed', async () => {
  const bucket = new Bucket();
  const plain = new Uint8Array([1, 2, 3, 4]);
  const sub = Buffer.from([5, 6, 7, 8]); // a Uint8Array subclass
  const wide = new Uint16Array([0x0102, 0x0304]);
  const window = new Uint8Array([9, 9, 10, 11, 9]).subarray(2, 4);
  const large = new Uint8Array(8 * 1024).fill(12); // past a slab's largest body
  const puts = [
    bucket.put('plain', plain),
    bucket.put('sub', sub),
    bucket.put('wide', wide),
    bucket.put('window', window),
    bucket.put('large', large),
  ];
  for (const b of [plain, sub, window, large]) b.fill(0);
  wide.fill(0);
  await Promise.all(puts);
  expect([...(await bytesOf(bucket, 'plain'))]).toEqual([1, 2, 3, 4]);
  expect([...(await bytesOf(bucket, 'sub'))]).toEqual([5, 6, 7, 8]);
  expect([...(await bytesOf(bucket, 'wide'))]).toEqual([...new Uint8Array(new Uint16Array([0x0102, 0x0304]).buffer)]);
  expect([...(await bytesOf(bucket, 'window'))]).toEqual([10, 11]);
  expect((await bytesOf(bucket, 'large')).every((b) => b === 12)).toBe(true);
});

it('a plain Uint8Array whose buffer was detached is refused as the view over it is', async () => {
  const bucket = new Bucket();
  const detached = new Uint8Array(8);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  await expect(bucket.put('k', detached)).rejects.toThrow(TypeError);
  expect(await bucket.head('k')).toBeNull();
});
