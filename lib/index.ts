export * from './bucket/index.js';
export type { Clock } from './clock.js';
