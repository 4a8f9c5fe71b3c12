/**
 * Parsing wrangler.toml / wrangler.json / wrangler.jsonc text with the libraries wrangler uses:
 * smol-toml for TOML; jsonc-parser for both JSON forms, with comments and trailing commas allowed
 * and the first error thrown (workers-sdk `packages/workers-utils/src/parse.ts`). Runs everywhere
 * (no file access), so a suite inside workerd can parse a config imported as text.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError as JsoncError } from 'jsonc-parser';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { WranglerConfig } from './validate.js';

/**
 * A config file that does not parse. `text` is wrangler's text (jsonc-parser's error code name, or
 * the first line of smol-toml's message); `line` is 1-based and `column` 0-based, as in wrangler's
 * ParseError location (its output prints `file:line:column`).
 */
export class ConfigParseError extends Error {
  override name = 'ConfigParseError';
  constructor(
    readonly text: string,
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly lineText: string | undefined,
  ) {
    super(`${text}\n\n    ${file}:${line}:${column}:${lineText === undefined ? '' : `\n      ${line} │ ${lineText}`}`);
  }
}

/** The format wrangler picks from a file name's ending; anything else is not a config file. */
function configFormat(file: string): 'toml' | 'json' | undefined {
  if (file.endsWith('.toml')) return 'toml';
  if (file.endsWith('.json') || file.endsWith('.jsonc')) return 'json';
  return undefined;
}

/** Parses a config file's text; `file` (its name or path) picks the format and names it in errors. */
export function parseWranglerConfig(text: string, file: string): WranglerConfig {
  const format = configFormat(file);
  if (format === undefined) {
    throw new Error(`"${file}" is not a wrangler config file: its name must end in .toml, .json or .jsonc`);
  }
  return format === 'toml' ? parseTomlConfig(text, file) : parseJsoncConfig(text, file);
}

function parseTomlConfig(text: string, file: string): WranglerConfig {
  try {
    return parseToml(text) as WranglerConfig;
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const first = e.message.indexOf('\n');
    // Wrangler keeps the message up to its first line break (the rest is smol-toml's code excerpt).
    const message = e.message.substring(0, first);
    return fail(new ConfigParseError(message, file, e.line, e.column - 1, text.split('\n')[e.line - 1]));
  }
}

function parseJsoncConfig(text: string, file: string): WranglerConfig {
  const errors: JsoncError[] = [];
  const data = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length === 0) return data as WranglerConfig;
  const { line, column, lineText } = locate(text, errors[0]!.offset + 1);
  return fail(new ConfigParseError(printParseErrorCode(errors[0]!.error), file, line, column, lineText));
}

function fail(error: Error): never {
  throw error;
}

/** Wrangler's `indexLocation`: the line holding a 1-based character index, and its column there. */
function locate(text: string, index: number): { line: number; column: number; lineText: string | undefined } {
  let line = 0;
  let cursor = 0;
  for (const row of text.split('\n')) {
    line++;
    cursor += row.length + 1;
    if (cursor >= index) return { line, column: row.length - (cursor - index), lineText: row };
  }
  return { line, column: 0, lineText: undefined };
}
