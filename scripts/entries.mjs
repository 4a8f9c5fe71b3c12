/**
 * The package's entries, read from package.json: every subpath of "exports" (but ./package.json)
 * and the `bin`, each with its source module and its built file's name in dist/. The one place that
 * maps a subpath to its source, for the tools that build, test, document or report the entries.
 * Plain JavaScript with JSDoc types, so TypeScript configs and Node scripts alike can import it.
 */
import { existsSync, readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);

/**
 * @typedef {object} Entry
 * @property {string} subpath the subpath in package.json "exports" ('.', './bucket', ...); '' for the bin
 * @property {string} name the entry's name: 'index' for '.', the subpath's segments joined by '-' otherwise ('conformance-portable'), 'cli' for the bin
 * @property {string} specifier what a user imports: 'edge-doubles', 'edge-doubles/bucket', ... ('' for the bin)
 * @property {string} source the source module, relative to the repository root ('lib/index.ts', 'conformance/portable.ts')
 * @property {string} dist the built file's name in dist/ without extension ('index', 'conformance-portable', 'cli')
 */

/** The CLI's source: `bin` in package.json names only its built file. */
const CLI_SOURCE = 'lib/node/cli.ts';

/**
 * The source of a subpath: '.' is lib/index.ts; './conformance' and './conformance/…' live under
 * conformance/ (index.ts, or the rest of the subpath as a file); any other './x' is lib/x/index.ts
 * or lib/x.ts, whichever exists.
 * @param {string} subpath
 * @returns {string}
 */
export function sourceOf(subpath) {
  if (subpath === '.') return 'lib/index.ts';
  const rest = subpath.slice(2);
  const [first, ...more] = rest.split('/');
  const base = first === 'conformance' ? 'conformance' : `lib/${first}`;
  const candidates =
    first === 'conformance'
      ? more.length
        ? [`${base}/${more.join('/')}.ts`, `${base}/${more.join('/')}/index.ts`]
        : [`${base}/index.ts`]
      : [`${base}/${more.length ? more.join('/') + '/' : ''}index.ts`, `lib/${rest}.ts`];
  const found = candidates.find((file) => existsSync(new URL(file, root)));
  if (!found) throw new Error(`entries: no source for "${subpath}" (tried ${candidates.join(', ')})`);
  return found;
}

/** @returns {{ exports: Record<string, unknown>, bin?: string | Record<string, string>, name: string }} */
function packageJson() {
  return JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
}

/**
 * The built file an "exports" target names (its ESM `import.default`, else a plain string), without
 * folder and extension.
 * @param {unknown} target
 * @returns {string | undefined}
 */
function distOf(target) {
  /** @type {unknown} */
  const file =
    typeof target === 'string' ? target : /** @type {{ import?: { default?: unknown } }} */ (target)?.import?.default;
  return typeof file === 'string' ? file.replace(/^\.\/dist\//, '').replace(/\.[cm]?js$/, '') : undefined;
}

/**
 * The package's public entries, in the order of package.json "exports".
 * @returns {Entry[]}
 */
export function entries() {
  const pkg = packageJson();
  return Object.keys(pkg.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => {
      const name = subpath === '.' ? 'index' : subpath.slice(2).split('/').join('-');
      return {
        subpath,
        name,
        specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
        source: sourceOf(subpath),
        dist: distOf(pkg.exports[subpath]) ?? name,
      };
    });
}

/**
 * The CLI, package.json's `bin`: built as dist/<dist>.js from lib/node/cli.ts.
 * @returns {Entry}
 */
export function cliEntry() {
  const { bin } = packageJson();
  const file = typeof bin === 'string' ? bin : Object.values(bin ?? {})[0];
  if (!file) throw new Error('entries: package.json has no bin');
  const dist = file.replace(/^\.\/dist\//, '').replace(/\.[cm]?js$/, '');
  return { subpath: '', name: 'cli', specifier: '', source: CLI_SOURCE, dist };
}

/**
 * Every entry tsup builds: the public entries, then the CLI.
 * @returns {Entry[]}
 */
export function buildEntries() {
  return [...entries(), cliEntry()];
}
