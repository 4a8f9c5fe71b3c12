import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';

/**
 * Account and zone ids (32 lowercase hex, as the API's) are made when a double is built, which in
 * workerd is often module scope, where random values are refused: derive them from a hash of a
 * seed and a sequence instead.
 */
let sequence = 0;
export const derivedId = (seed: string): string => toHex(digest('md5', utf8(`edge-doubles ${seed} ${++sequence}`)));

/**
 * The sequence's position, and a way to carry it on from a persisted one (`--persist`,
 * lib/node/persist): a restarted process starts again at 0, and would derive the ids it derived
 * before (a zone made, deleted and made again would get its old id back).
 */
export const idSequence = {
  get now(): number {
    return sequence;
  },
  continueFrom(n: number): void {
    if (n > sequence) sequence = n;
  },
};

export { HEX32 } from '../api/router.js';
