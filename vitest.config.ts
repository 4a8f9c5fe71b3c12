import { defineConfig } from 'vitest/config';
import { cloudflareTest } from '@cloudflare/vitest-plugin';

// Every conformance target is a Vitest project named `conformance:<target>`, so the summary
// reporter can print group × target, and `npm run conformance` selects them all by that prefix.
// The workerd projects run inside the real runtime through @cloudflare/vitest-plugin.
const workerd = (name: string, include: string[], compatibilityDate = '2025-01-01') => ({
  plugins: [
    cloudflareTest({
      miniflare: {
        compatibilityDate,
        compatibilityFlags: ['nodejs_compat'],
        r2Buckets: ['BUCKET'],
      },
    }),
  ],
  test: { name, include },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'spec', include: ['spec/**/*.test.ts', 'examples/**/*.test.ts'] } },
      { test: { name: 'conformance:double', include: ['conformance/targets/double.test.ts'] } },
      workerd('conformance:workerd', ['conformance/targets/workerd.test.ts']),
      workerd('conformance:workerd-2022', ['conformance/targets/workerd-2022.test.ts'], '2022-01-01'),
      workerd('conformance:double-in-workerd', ['conformance/targets/double-in-workerd.test.ts']),
      { test: { name: 'conformance:r2-remote', include: ['conformance/targets/r2-remote.test.ts'] } },
      { test: { name: 'conformance:dns-double', include: ['conformance/targets/dns-double.test.ts'] } },
      { test: { name: 'conformance:dns-api', include: ['conformance/targets/dns-api.test.ts'] } },
    ],
  },
});
