/**
 * A Node that has `node:sqlite` (22.13 and later), for the tests of what `--persist` keeps: this
 * process's own when it has one, else Node 24 from the dev dependencies (scripts/runtimes.ts). The
 * Store runs there as it does for a user who runs the server on such a Node.
 */
import { runtimeBinary } from '../../scripts/runtimes.js';

const hasSqlite = (() => {
  try {
    return process.getBuiltinModule?.('node:sqlite') !== undefined;
  } catch {
    return false;
  }
})();

/** The binary, with the arguments that let it run a TypeScript file of the repository. */
export function sqliteNode(): { path?: string; args: string[]; missing?: string } {
  const args = ['--disable-warning=ExperimentalWarning', '--import', 'tsx'];
  if (hasSqlite) return { path: process.execPath, args };
  const found = runtimeBinary('node24');
  return found.path ? { path: found.path, args } : { args, missing: found.missing! };
}
