/**
 * Runs the Python drivers next to this file against the double's HTTP server, with an interpreter
 * that can import the client under test, in a clean environment.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));

/** A Python interpreter that imports `module`, and the module's `__version__`. */
export interface Python {
  bin: string;
  version: string;
}

/**
 * The first interpreter that imports `module`. `python3` on PATH comes first; Debian's own
 * `/usr/bin/python3` is tried next because the python3-* packages install into its dist-packages,
 * which a pyenv or virtualenv `python3` earlier on PATH does not see.
 */
export function findPython(module: string | readonly string[]): Python | undefined {
  const candidates = [...new Set([process.env.PYTHON ?? 'python3', '/usr/bin/python3'])];
  // Several modules: one interpreter must import them all (the version is the first one's).
  const modules = [module].flat();
  for (const bin of candidates) {
    const probe = spawnSync(
      bin,
      ['-c', `import ${modules.join(', ')}; print(getattr(${modules[0]}, '__version__', ''))`],
      { encoding: 'utf8', timeout: 20_000 },
    );
    if (probe.status === 0) return { bin, version: probe.stdout.trim() };
  }
  return undefined;
}

/**
 * `findPython`, for a module that a Debian package provides. Where it is missing the tests skip and
 * name the package; with EDGE_DOUBLES_PYTHON_CLIENTS=required or CI=true (CI installs the packages)
 * a missing module fails the file instead, so the client tests cannot be skipped there unnoticed.
 */
export function pythonFor(module: string | readonly string[], debianPackage: string): Python | undefined {
  const found = findPython(module);
  if (!found && (process.env.EDGE_DOUBLES_PYTHON_CLIENTS === 'required' || process.env.CI === 'true')) {
    throw new Error(
      `EDGE_DOUBLES_PYTHON_CLIENTS=required or CI=true, but no python3 imports ${[module].flat().join(', ')}: install the Debian package ${debianPackage}`,
    );
  }
  return found;
}

/**
 * The drivers' environment holds only PATH, HOME and what the test gives: no CLOUDFLARE_* variable
 * of the caller's shell (the Python library reads CLOUDFLARE_API_TOKEN / _EMAIL / _API_KEY /
 * _API_URL from the environment), and HOME and the working directory are an empty folder, so no
 * `.cloudflare.cfg` is read either.
 */
const cleanEnv = (home: string) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  PYTHONDONTWRITEBYTECODE: '1',
});

/** Runs `script` (a file in this folder) once and parses the JSON it prints. */
export async function runDriver<T>(
  python: Python,
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'edge-doubles-py-'));
  try {
    const { stdout } = await run(python.bin, [join(here, script), ...args], {
      cwd: home,
      env: { ...cleanEnv(home), ...env },
      timeout: 30_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(stdout) as T;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** A driver that stays up and answers one JSON line per JSON line sent (one import for many steps). */
export interface LineDriver {
  send<T>(message: unknown): Promise<T>;
  close(): Promise<void>;
}

export function startLineDriver(python: Python, script: string): LineDriver {
  const home = mkdtempSync(join(tmpdir(), 'edge-doubles-py-'));
  const child = spawn(python.bin, [join(here, script)], {
    cwd: home,
    env: cleanEnv(home),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr.on('data', (c: Buffer) => stderr.push(c.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let queue = Promise.resolve();
  return {
    send<T>(message: unknown) {
      // One step at a time: answers come back in order on one pipe.
      const answer = queue.then(async () => {
        child.stdin.write(`${JSON.stringify(message)}\n`);
        const next = await lines.next();
        if (next.done) throw new Error(`${script} exited: ${stderr.join('')}`);
        return JSON.parse(next.value) as T;
      });
      queue = answer.then(
        () => undefined,
        () => undefined,
      );
      return answer;
    },
    async close() {
      if (child.exitCode === null) {
        child.stdin.end();
        await once(child, 'exit');
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
