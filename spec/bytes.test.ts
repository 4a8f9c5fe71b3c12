/** lib/bytes.ts: the string checks every converted key and value goes through. */
import { expect, it } from 'vitest';
import { isWellFormed, wellFormedByPattern } from '../lib/bytes.js';
import { seeded } from '../lib/random.js';

it('isWellFormed (the engine’s, where it has one) agrees with the pattern it replaces', () => {
  const fixed = ['', 'abc', 'é', '😀', 'a\ud800', '\udc00b', '\udc00\ud800', 'x😀y', '\ud83d', 'k\ud83d\ude00\ud800'];
  // Random strings over an alphabet rich in surrogates, seeded so a failure names its input.
  const alphabet = ['a', 'é', '\u00ff', '\u0100', '\ud800', '\udbff', '\udc00', '\udfff', '\ue000', '\uffff', '😀'];
  const random = seeded(37);
  const drawn = Array.from({ length: 2000 }, () =>
    Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
  );
  for (const s of [...fixed, ...drawn]) expect([s, isWellFormed(s)]).toEqual([s, wellFormedByPattern(s)]);
  expect(fixed.map(wellFormedByPattern)).toEqual([true, true, true, true, false, false, false, true, false, false]);
});
