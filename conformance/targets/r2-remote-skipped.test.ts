import { it } from 'vitest';

// Stands in for the real-R2 target when its credentials are absent, so the run says so.
const missing = ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN', 'EDGE_DOUBLES_R2_BUCKET'].filter(
  (v) => !process.env[v],
);

it.skip(`real R2 (remote binding) skipped: set ${missing.join(', ')} to run the bucket suite against it`, () => {});
