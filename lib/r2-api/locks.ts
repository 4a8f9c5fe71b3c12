// SKELETON (to be replaced before this session ends): the locks routes of R2's control plane.
import type { R2Table } from './routes.js';

export const lockRoutes: R2Table = () => undefined;
