import { it } from 'vitest';
import { chromiumPath } from '../browser/paths.js';

// Stands in for the Chromium run when the browser is absent, so the run says so; where the run is
// required (EDGE_DOUBLES_BROWSER=required, as CI could set it), its absence fails instead.
const reason = `${chromiumPath} not found (install Debian's package \`chromium\`)`;
if (process.env.EDGE_DOUBLES_BROWSER === 'required') {
  it(`Chromium run required: ${reason}`, () => {
    throw new Error(`EDGE_DOUBLES_BROWSER=required but ${reason}`);
  });
} else {
  it.skip(`Chromium run skipped: ${reason}`, () => {});
}
