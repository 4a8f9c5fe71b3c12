/**
 * A module that copies a binding when it loads, as many Workers' helpers do
 * (`const files = env.FILES` at module scope). A swap made later does not reach this copy.
 */
import { env } from 'cloudflare:workers';

export const files = env.FILES;
