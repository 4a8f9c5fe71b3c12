// SKELETON (to be replaced before this session ends): the cors routes of R2's control plane.
import type { R2Table } from './routes.js';

export const corsRoutes: R2Table = () => undefined;
