export * from './bucket/index.js';
export { ManualClock, type Clock } from './clock.js';
export * from './support/index.js';
export * from './dns/index.js';
export * from './account/index.js';
export * from './env/index.js';
export * from './s3/index.js';
export * from './api/index.js';
export * from './r2-public/index.js';
