/**
 * Real clients from Debian's packages (rclone, restic, aws, ...). Where one is missing its tests
 * skip and name the package; under CI (`CI` set, as .ci/run's environment has it), which installs
 * every package the tests use, a missing one fails the file instead, so a client test cannot be
 * skipped there unnoticed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The command's path (Debian's /usr/bin first, then PATH), or undefined outside CI when it is missing. */
export function debianCommand(command: string, debianPackage: string): string | undefined {
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(':').filter(Boolean)];
  const found = dirs.map((dir) => join(dir, command)).find((p) => existsSync(p));
  if (!found && process.env.CI)
    throw new Error(`CI is set, but ${command} is not installed: install the Debian package ${debianPackage}`);
  return found;
}
