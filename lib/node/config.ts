/**
 * `createEnv` for Node: the config may also be a path to wrangler.toml / wrangler.json /
 * wrangler.jsonc (or a file URL), or nothing, in which case it is found as wrangler finds it.
 * Facts from workers-sdk `packages/workers-utils/src/config/{index,config-helpers}.ts` and
 * `src/parse.ts` (wrangler 4.155.0).
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEnv as createEnvFromObject, type CreateEnvOptions, type CreatedEnv } from '../env/create-env.js';
import { ConfigParseError, parseWranglerConfig } from '../env/parse.js';
import type { WranglerConfig } from '../env/validate.js';
import type { Bucket } from '../bucket/bucket.js';

/** Wrangler looks for each name from the directory up to the root before trying the next name. */
const SEARCH_ORDER = ['wrangler.json', 'wrangler.jsonc', 'wrangler.toml'];

/** The config file wrangler would use from `from` (default: the working directory), if any. */
export function findWranglerConfig(from: string = process.cwd()): string | undefined {
  for (const name of SEARCH_ORDER) {
    for (let dir = resolve(from); ; dir = dirname(dir)) {
      const candidate = join(dir, name);
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/** Byte-order marks wrangler refuses (a UTF-8 one is dropped). */
const REFUSED_BOMS: Array<[bytes: number[], encoding: string]> = [
  [[0x00, 0x00, 0xfe, 0xff], 'UTF-32 BE'],
  [[0xff, 0xfe, 0x00, 0x00], 'UTF-32 LE'],
  [[0xfe, 0xff], 'UTF-16 BE'],
  [[0xff, 0xfe], 'UTF-16 LE'],
];

/** Reads and parses a config file as wrangler does. */
export function readWranglerConfig(file: string | URL): WranglerConfig {
  const path = file instanceof URL ? fileURLToPath(file) : file;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`Could not read file: ${path}\n${(e as Error).message.replace(path, resolve(path))}`, { cause: e });
  }
  for (const [bom, encoding] of REFUSED_BOMS) {
    if (bytes.length >= bom.length && bom.every((b, i) => bytes[i] === b)) {
      throw new ConfigParseError(`Configuration file contains ${encoding} byte order marker`, path, 1, 0, undefined);
    }
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return parseWranglerConfig(text, path);
}

/**
 * Builds `env` from a wrangler config: an object, a path or file URL (relative paths from the
 * working directory, as `wrangler --config`), or nothing (found as wrangler finds it). The
 * environment defaults to `CLOUDFLARE_ENV`, as in wrangler and the Vitest plugin.
 */
export function createEnv<E = Record<string, Bucket>>(
  config?: WranglerConfig | string | URL,
  options: CreateEnvOptions = {},
): CreatedEnv<E> {
  const environment = options.environment ?? process.env.CLOUDFLARE_ENV;
  if (typeof config === 'object' && !(config instanceof URL))
    return createEnvFromObject<E>(config, { ...options, environment });
  const file = config ?? findWranglerConfig();
  if (file === undefined) {
    throw new Error(`createEnv: no ${SEARCH_ORDER.join(', ')} found in ${process.cwd()} or any directory above it`);
  }
  const cwd = process.cwd();
  const path = resolve(cwd, file instanceof URL ? fileURLToPath(file) : file);
  if (typeof file === 'string' && !isAbsolute(file) && !statSync(path, { throwIfNoEntry: false })) {
    // Resolved from the working directory, as `wrangler --config` resolves it; a test that expected
    // the path to be read from its own directory learns here how to say so.
    throw new Error(
      `createEnv: no ${file} in the working directory, ${cwd}. A relative path is read from the working directory ` +
        `(your project's root when Vitest runs there); for a file beside the test, pass new URL('./${basename(file)}', import.meta.url).`,
    );
  }
  return createEnvFromObject<E>(readWranglerConfig(path), {
    configPath: relative(cwd, path),
    ...options,
    environment,
  });
}
