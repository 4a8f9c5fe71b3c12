export { Account, type AccountOptions } from './account.js';
export type { AccountInfo } from './present.js';
