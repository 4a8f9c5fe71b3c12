/**
 * Wrangler's reading of a config for the parts `createEnv` uses: the environment chosen and its
 * inheritance rules, `compatibility_date` / `compatibility_flags`, the bucket bindings, unique
 * binding names across every binding type, and unknown fields. Each check adds wrangler's text
 * in wrangler's order (workers-sdk `packages/workers-utils/src/config/validation.ts`:
 * `normalizeAndValidateConfig`, `normalizeAndValidateEnvironment`, `validateBindingArray`,
 * `validateBindingsHaveUniqueNames`; wrangler 4.155.0).
 *
 * `vars` are checked too, since they reach `env`. Not re-checked here: the inner shape of binding
 * types this package does not fake (a malformed `kv_namespaces` entry is wrangler's to refuse),
 * routes, builds and the other deploy settings.
 */
import { validateBucketBinding, type BucketBindingConfig } from './bucket-bindings.js';
import { validateQueues, type QueuesConfig } from './queue-bindings.js';
import { Diagnostics } from './diagnostics.js';
import {
  BINDING_TYPES,
  BUCKET_FIELDS,
  ENVIRONMENT_FIELDS,
  NON_INHERITABLE_FIELDS,
  SECRETS_TYPE,
  TOP_LEVEL_ONLY_FIELDS,
  type BucketField,
} from './fields.js';
import {
  bindingNames,
  experimental,
  namesAt,
  unexpectedFields,
  validateCompatibilityDate,
  validateStringArray,
  validateVars,
} from './rules.js';

/** A wrangler config as parsed from wrangler.toml / wrangler.json(c); fields not used here stay open. */
export interface WranglerConfig {
  compatibility_date?: string;
  compatibility_flags?: string[];
  r2_buckets?: BucketBindingConfig[];
  /** The interface documents' neutral name for `r2_buckets`. */
  store_buckets?: BucketBindingConfig[];
  queues?: QueuesConfig;
  env?: Record<string, Omit<WranglerConfig, 'env'>>;
  [field: string]: unknown;
}

/** The active environment as `createEnv` needs it. */
export interface ResolvedConfig {
  compatibilityDate: string | undefined;
  compatibilityFlags: string[];
  buckets: Array<{ field: BucketField; entry: BucketBindingConfig }>;
  /** The environment's `queues` (producers and consumers; not inherited). */
  queues: QueuesConfig;
  /** The environment's `vars` (not inherited: an `[env.<name>]` without them has none). */
  vars: Record<string, unknown>;
  /**
   * Every binding per binding type (wrangler's type names, in wrangler's order), buckets and vars
   * included, under the name the Worker reads it by.
   */
  bindingsByType: Array<{ field: string; kind: string; names: string[] }>;
}

const INHERITED_BINDING_FIELDS = ['assets', 'logfwdr'];
const TOP_LEVEL_BINDING_FIELDS = ['data_blobs', 'text_blobs', 'wasm_modules'];

type Raw = Record<string, unknown>;

/** Fields wrangler 4 refuses outright; it then drops them, so they are not "unexpected" as well. */
const LEGACY_ENV_REMOVED =
  'The "legacy_env" field is no longer supported, so please remove it from your configuration file.\n' +
  'Service environments have been removed, and each environment is now deployed as its own Worker named "<name>-<environment>". This matches the behaviour of "legacy_env = true", which was the default, so removing the field will not change how your Worker is deployed.\n' +
  'Refer to https://developers.cloudflare.com/workers/wrangler/environments/ for more information.';
const NODE_COMPAT_REMOVED =
  '\x1b[1mRemoved\x1b[0m: "node_compat":\n' +
  'The "node_compat" field is no longer supported as of Wrangler v4. Instead, use the `nodejs_compat` compatibility flag. This includes the functionality from legacy `node_compat` polyfills and natively implemented Node.js APIs. See https://developers.cloudflare.com/workers/runtime-apis/nodejs for more information.';
const REMOVED_FIELDS = ['legacy_env', 'node_compat'];

/** One environment (the top level when `envName` is undefined), validated into `d`. */
function environment(d: Diagnostics, raw: Raw, envName?: string, top?: Raw, rawConfig?: Raw): Raw {
  if ('node_compat' in raw) d.errors.push(NODE_COMPAT_REMOVED);
  // `unsafe` is flagged as experimental at the top level, and in an env only when the top lacks it.
  if ((top === undefined || rawConfig?.unsafe === undefined) && 'unsafe' in raw) experimental(d, 'unsafe');
  const out: Raw = {};
  // Inheritable: the env's value replaces the top level's (never merged).
  validateCompatibilityDate(d, 'compatibility_date', raw.compatibility_date);
  out.compatibility_date = raw.compatibility_date ?? top?.compatibility_date;
  validateStringArray(d, 'compatibility_flags', raw.compatibility_flags);
  out.compatibility_flags = raw.compatibility_flags ?? top?.compatibility_flags ?? [];
  for (const f of INHERITED_BINDING_FIELDS) out[f] = raw[f] ?? top?.[f];
  // Non-inheritable: an env that omits one gets nothing from the top level, and a warning.
  for (const field of NON_INHERITABLE_FIELDS) {
    const value = raw[field];
    if (value !== undefined) {
      if ((BUCKET_FIELDS as readonly string[]).includes(field)) validateBucketArray(d, field, value, envName, top);
      else if (field === 'vars') validateVars(d, value, envName, top);
      else if (field === 'queues') validateQueues(d, value, envName);
    } else if (rawConfig?.[field] !== undefined) {
      d.warnings.push(
        `"${field}" exists at the top level, but not on "env.${envName}".\n` +
          `This is not what you probably want, since "${field}" is not inherited by environments.\n` +
          `Please add "${field}" to "env.${envName}".`,
      );
    }
    out[field] = value;
  }
  if (envName !== undefined)
    unexpectedFields(d, `env.${envName}`, Object.keys(raw), [...ENVIRONMENT_FIELDS, 'node_compat']);
  return out;
}

/** `validateBindingArray`: the list's type, each entry, and top-level bindings the env lacks. */
function validateBucketArray(d: Diagnostics, field: string, value: unknown, envName?: string, top?: Raw): void {
  const path = top === undefined ? field : `env.${envName}.${field}`;
  if (!Array.isArray(value)) {
    d.errors.push(`The field "${path}" should be an array but got ${JSON.stringify(value)}.`);
    return;
  }
  value.forEach((entry, i) => validateBucketBinding(d, field, `${path}[${i}]`, entry));
  const topValue = top?.[field];
  if (Array.isArray(topValue) && topValue.length > 0) {
    const here = new Set(value.map((v: { binding?: unknown }) => v?.binding));
    for (const name of topValue.map((v: { binding?: unknown }) => v?.binding)) {
      if (!here.has(name)) {
        d.warnings.push(
          `There is a ${field} binding with name "${name}" at the top level, but not on "env.${envName}".\n` +
            `This is not what you probably want, since "${field}" configuration is not inherited by environments.\n` +
            `Please add a binding for "${name}" to "env.${envName}.${field}.bindings".`,
        );
      }
    }
  }
}

/** `validateBindingsHaveUniqueNames` over the active environment. */
function uniqueNames(d: Diagnostics, byType: ResolvedConfig['bindingsByType']): void {
  const typesByName = new Map<string, string[]>();
  for (const { kind, names } of byType) {
    for (const name of names) {
      const types = typesByName.get(name) ?? [];
      types.push(kind);
      typesByName.set(name, types);
    }
  }
  let duplicates = false;
  const list = new Intl.ListFormat('en-US');
  for (const [name, types] of typesByName) {
    if (types.length < 2) continue;
    duplicates = true;
    const distinct = [...new Set(types)];
    const repeated = [...new Set(types.filter((t, i) => types.indexOf(t) !== i))];
    if (distinct.length > 1) d.errors.push(`${name} assigned to ${list.format(distinct)} bindings.`);
    for (const t of repeated) d.errors.push(`${name} assigned to multiple ${t} bindings.`);
  }
  if (duplicates) {
    d.errors.push(
      'Bindings must have unique names, so that they can all be referenced in the worker.\n' +
        'Please change your bindings to have unique names.',
    );
  }
}

export interface ValidateOptions {
  /** `[env.<name>]` to use; the top level when undefined or empty. */
  environment?: string;
  /** The config file as wrangler names it in its messages (a path relative to the working directory). */
  configPath?: string;
}

/** Validates a parsed config; errors and warnings are in `diagnostics`, the active environment in `config`. */
export function resolveConfig(
  raw: WranglerConfig,
  options: ValidateOptions = {},
): { config: ResolvedConfig; diagnostics: Diagnostics } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new TypeError(
      `createEnv: the config must be an object (a parsed wrangler config), got ${raw === null ? 'null' : typeof raw}`,
    );
  }
  const d = new Diagnostics(`Processing ${options.configPath ?? 'wrangler'} configuration:`);
  if ('legacy_env' in raw) d.errors.push(LEGACY_ENV_REMOVED);
  if ('$schema' in raw && raw.$schema !== undefined && typeof raw.$schema !== 'string') {
    d.errors.push(`Expected "$schema" to be of type string but got ${JSON.stringify(raw.$schema)}.`);
  }
  const top = environment(d, raw);
  let active = top;
  const envName = options.environment;
  const envs = raw.env as Record<string, Raw> | undefined;
  if (envName) {
    const envDiagnostics = new Diagnostics(`"env.${envName}" environment configuration`);
    const rawEnv = envs?.[envName];
    if (rawEnv !== undefined) {
      active = environment(envDiagnostics, rawEnv, envName, top, raw);
      d.addChild(envDiagnostics);
    } else {
      // Wrangler keeps the top level's bindings then (its checks of that copy are not reported).
      const names = envs
        ? `The available configured environment names are: ${JSON.stringify(Object.keys(envs))}\n`
        : '';
      const message =
        `No environment found in configuration with name "${envName}".\n` +
        `Before using \`--env=${envName}\` there should be an equivalent environment section in the configuration.\n` +
        `${names}\nConsider adding an environment configuration section to the ${fileName(options.configPath)} file:\n` +
        '```\n[env.' +
        envName +
        ']\n```\n';
      (names.length > 0 ? d.errors : d.warnings).push(message);
    }
  }
  const valueOf = (field: string) => (TOP_LEVEL_BINDING_FIELDS.includes(field) ? raw[field] : active[field]);
  // Wrangler's unique-name check reads names its own way (bindingNames), which this keeps for parity.
  const checked = BINDING_TYPES.map(([field, kind]) => {
    const value = valueOf(field);
    return {
      field,
      kind,
      names: bindingNames(field === 'queues' ? (value as { producers?: unknown } | undefined)?.producers : value),
    };
  });
  const secrets = (active.secrets as { required?: unknown } | undefined)?.required;
  checked.push({ field: 'secrets', kind: 'Secret', names: Array.isArray(secrets) ? (secrets as string[]) : [] });
  uniqueNames(d, checked);
  const bindingsByType = [...BINDING_TYPES, SECRETS_TYPE].map(([field, kind, path]) => ({
    field,
    kind,
    names: namesAt(valueOf(field), path),
  }));
  unexpectedFields(d, 'top-level', Object.keys(raw), [
    ...ENVIRONMENT_FIELDS,
    ...TOP_LEVEL_ONLY_FIELDS,
    ...REMOVED_FIELDS,
  ]);

  const buckets = BUCKET_FIELDS.flatMap((field) =>
    Array.isArray(active[field]) ? (active[field] as BucketBindingConfig[]).map((entry) => ({ field, entry })) : [],
  );
  const config: ResolvedConfig = {
    compatibilityDate: active.compatibility_date as string | undefined,
    compatibilityFlags: active.compatibility_flags as string[],
    buckets,
    queues: (active.queues as QueuesConfig | undefined) ?? {},
    vars: (active.vars as Record<string, unknown> | undefined) ?? {},
    bindingsByType,
  };
  return { config, diagnostics: d };
}

/** How wrangler names the file in its hint: the file's base name, or "Wrangler configuration". */
const fileName = (configPath: string | undefined) =>
  configPath === undefined ? 'Wrangler configuration' : configPath.split(/[\\/]/).pop()!;
