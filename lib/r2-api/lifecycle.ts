// SKELETON (to be replaced before this session ends): the lifecycle routes of R2's control plane.
import type { R2Table } from './routes.js';

export const lifecycleRoutes: R2Table = () => undefined;
