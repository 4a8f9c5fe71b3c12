/**
 * Global setup of the `conformance:browser` project: builds the package once, with the package's own
 * tsup config, so the browser runs the bundled ESM a user's bundler would get from `dist/`, not the
 * TypeScript sources. It goes to a directory of its own, so a `dist/` built for publishing is left
 * as it was.
 */
import { buildEsm } from '../../scripts/browser-bundle.js';
import { browserDist } from './paths.js';

export default async function buildPackage(): Promise<void> {
  const started = performance.now();
  await buildEsm(browserDist);
  console.log(
    `conformance:browser: built the package into ${browserDist} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
