export * from './bucket/index.js';
export type { Clock } from './clock.js';
export * from './dns/index.js';
