/**
 * The Headers form of get's `range`: the binding reads the header's text (checkRange, its second
 * phase) and hands the model numbers; the model resolves them against the object's size.
 */
import { describe, expect, it } from 'vitest';
import { checkRange, resolveRange } from '../../lib/bucket/range.js';

const header = (value: string) => checkRange({ kind: 'header', value });

describe('a Range header, parsed by the binding and resolved by the model', () => {
  it('the model gets numbers, never the header text', () => {
    expect(header('bytes=2-4')).toEqual({ kind: 'header', first: 2, last: 4 });
    expect(header(' Bytes = 5 - ')).toEqual({ kind: 'header', first: 5 });
    expect(header('bytes=-3')).toEqual({ kind: 'header', suffix: 3 });
    // What R2 reads as the whole object whatever its size is no range at all.
    for (const whole of ['bytes=-0', 'bytes=4-2', 'bytes=-', 'bytes=0-1,3-4', 'items=0-1', ''])
      expect(header(whole), whole).toBeUndefined();
  });

  it('resolves against the size: clamped at the end, the whole object when it starts past the end', () => {
    const size = 8;
    const cases: [string, { offset: number; length: number }][] = [
      ['bytes=2-4', { offset: 2, length: 3 }],
      ['bytes=5-', { offset: 5, length: 3 }],
      ['bytes=6-100', { offset: 6, length: 2 }],
      ['bytes=-3', { offset: 5, length: 3 }],
      ['bytes=-100', { offset: 0, length: 8 }],
      ['bytes=8-', { offset: 0, length: 8 }],
      ['bytes=4-2', { offset: 0, length: 8 }],
      ['bytes=0-1,3-4', { offset: 0, length: 8 }],
    ];
    for (const [value, expected] of cases) expect(resolveRange(header(value), size), value).toEqual(expected);
    expect(resolveRange(header('bytes=-5'), 0)).toEqual({ offset: 0, length: 0 });
  });
});
