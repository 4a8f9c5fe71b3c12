// SKELETON (to be replaced before this session ends): the domains routes of R2's control plane.
import type { R2Table } from './routes.js';

export const domainRoutes: R2Table = () => undefined;
