import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';

/**
 * Account and zone ids (32 lowercase hex, as the API's) are made when a double is built, which in
 * workerd is often module scope, where random values are refused: derive them from a hash of a
 * seed and a sequence instead.
 */
let sequence = 0;
export const derivedId = (seed: string): string => toHex(digest('md5', utf8(`edge-doubles ${seed} ${++sequence}`)));

export { HEX32 } from '../api/router.js';
