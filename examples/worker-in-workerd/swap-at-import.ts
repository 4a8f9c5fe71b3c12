/**
 * Swaps `env.FILES` for a double when this module loads. Imported before the modules that copy
 * `env` at import time (ES modules run in import order), it reaches their copies too.
 */
// README: swap-at-import
// swap-at-import.ts
import { env } from 'cloudflare:workers';
import { createEnv, parseWranglerConfig, useDoubles } from 'edge-doubles';
import wranglerToml from './wrangler.toml?raw';

export const doubles = createEnv(parseWranglerConfig(wranglerToml, 'wrangler.toml')).env;
export const restore = useDoubles(env, doubles);
// README: end
