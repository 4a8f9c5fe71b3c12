/**
 * Wrangler's small validation rules, with its texts (workers-sdk
 * `packages/workers-utils/src/config/validation-helpers.ts`, wrangler 4.155.0). Presence is tested
 * with `in`, as wrangler does: a key holding `undefined` is present.
 */
import type { Diagnostics } from './diagnostics.js';
import type { BindingNamePath } from './fields.js';

export const hasProperty = (target: object, property: string) => property in target;

export const isRequiredProperty = (target: Record<string, unknown>, property: string, type: string) =>
  hasProperty(target, property) && typeof target[property] === type;

export const isOptionalProperty = (target: Record<string, unknown>, property: string, type: string) =>
  !hasProperty(target, property) || typeof target[property] === type;

/** Unknown keys are a warning, never an error: a newer wrangler may know them. */
export function unexpectedFields(d: Diagnostics, path: string, keys: string[], known: readonly string[]): void {
  const rest = keys.filter((k) => !known.includes(k));
  if (rest.length > 0)
    d.warnings.push(`Unexpected fields found in ${path} field: ${rest.map((k) => `"${k}"`).join(',')}`);
}

/** Wrangler's notice for experimental fields, silenced by WRANGLER_DISABLE_EXPERIMENTAL_WARNING. */
export function experimental(d: Diagnostics, path: string): void {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (env && 'WRANGLER_DISABLE_EXPERIMENTAL_WARNING' in env) return;
  d.warnings.push(`"${path}" fields are experimental and may change or break at any time.`);
}

/** `compatibility_date`: a string that `new Date` reads, with ASCII hyphens. */
export function validateCompatibilityDate(d: Diagnostics, field: string, value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'string') {
    d.errors.push(`Expected "${field}" to be of type string but got ${JSON.stringify(value)}.`);
    return false;
  }
  let valid = true;
  if (value.includes('\u2013') || value.includes('\u2014')) {
    d.errors.push(
      `"${field}" field should use ISO-8601 accepted hyphens (-) rather than en-dashes (\u2013) or em-dashes (\u2014).`,
    );
    valid = false;
  }
  if (Number.isNaN(new Date(value.replaceAll(/\u2013|\u2014/g, '-')).getTime())) {
    d.errors.push(`"${field}" field should be a valid ISO-8601 date (YYYY-MM-DD), but got ${JSON.stringify(value)}.`);
    valid = false;
  }
  return valid;
}

export function validateStringArray(d: Diagnostics, field: string, value: unknown): boolean {
  if (value !== undefined && (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))) {
    d.errors.push(`Expected "${field}" to be of type string array but got ${JSON.stringify(value)}.`);
    return false;
  }
  return true;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The binding names a field declares, read the way wrangler reads them for its unique-name check:
 * `{bindings: [{name}]}` lists, `[{binding}]` lists, a single `{binding}` object, or a record's
 * keys (`vars`). A list with one malformed entry yields no names at all.
 */
export function bindingNames(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  if (
    isRecord(value) &&
    Array.isArray(value.bindings) &&
    value.bindings.every((b: unknown) => isRecord(b) && typeof b.name === 'string')
  ) {
    return (value.bindings as { name: string }[]).map((b) => b.name);
  }
  if (Array.isArray(value)) {
    return value.every((e) => isRecord(e) && typeof e.binding === 'string')
      ? value.map((e) => e.binding as string)
      : [];
  }
  if (isRecord(value)) {
    if (value.binding !== undefined) return [value.binding as string];
    return Object.keys(value).filter((k) => value[k] !== undefined);
  }
  return [];
}

/**
 * The names a binding field puts in the Worker's env, read along its path (fields.ts,
 * BINDING_TYPES). Not `bindingNames`: wrangler's unique-name check finds no names in a `send_email`
 * or `ratelimits` list (their entries are named by `name`) nor in `secrets`, and takes an `assets`
 * without a `binding` for a record of names. A value or entry of another shape names nothing.
 */
export function namesAt(value: unknown, path: BindingNamePath): string[] {
  let values: unknown[] = [value];
  for (const step of path.split('.')) {
    if (step === '*') {
      values = values.flatMap((v) => (isRecord(v) ? Object.keys(v).filter((k) => v[k] !== undefined) : []));
      continue;
    }
    const list = step.endsWith('[]');
    const key = list ? step.slice(0, -2) : step;
    if (key !== '') values = values.map((v) => (isRecord(v) ? v[key] : undefined));
    if (list) values = values.flatMap((v) => (Array.isArray(v) ? v : []));
  }
  return values.filter((v): v is string => typeof v === 'string');
}

/**
 * `validateVars`: `vars` must be an object (wrangler's test is `typeof`, so an array passes), a TOML
 * date is refused, and an environment's `vars` that lacks some of the top level's gets one warning
 * naming them. `top` is the top level's resolved environment (undefined for the top level itself).
 */
export function validateVars(
  d: Diagnostics,
  value: unknown,
  envName: string | undefined,
  top: Record<string, unknown> | undefined,
): void {
  const path = top === undefined ? 'vars' : `env.${envName}.vars`;
  if (value !== undefined) {
    if (typeof value !== 'object' || value === null) {
      // wrangler's text ends with a newline
      d.errors.push(`The field "${path}" should be an object but got ${JSON.stringify(value)}.\n`);
    } else {
      for (const [name, v] of Object.entries(value)) {
        if (v instanceof Date) {
          d.errors.push(
            `The field "${path}.${name}" is a TOML date, which is not supported. Please use a string instead, e.g. ${name} = "2025-12-19".`,
          );
        }
      }
    }
  }
  const topVars = Object.keys((top?.vars as object | undefined) ?? {});
  if (topVars.length > 0 && typeof value === 'object' && value !== null) {
    const missing = topVars.filter((name) => !(name in value));
    if (missing.length > 0) {
      d.warnings.push(
        `The following vars exist at the top level, but not on "${path}".\n` +
          'This is probably not what you want, since "vars" configuration is not inherited by environments.\n' +
          `Please add these vars to "env.${envName}.vars":\n` +
          missing.map((name) => `- ${name}`).join('\n'),
      );
    }
  }
}
