// SKELETON (to be replaced before this session ends): the buckets routes of R2's control plane.
import type { R2Table } from './routes.js';

export const bucketRoutes: R2Table = () => undefined;
