import { it } from 'vitest';
import { r2ApiConformance, realApiDifferences } from '../r2-api/index.js';

// R2's control plane on the real API, when credentials are in the environment. The suite makes
// buckets only under a random `edt-<digits>` prefix and deletes them (and the objects it put) after
// each test. Optional: CLOUDFLARE_R2_READ_TOKEN and CLOUDFLARE_NO_R2_TOKEN run the permission tests;
// R2_S3_ENDPOINT, R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY (as for conformance:s3-r2) the lifecycle-through-S3 tests;
// CLOUDFLARE_R2_ZONE_ID and CLOUDFLARE_R2_ZONE_NAME (a zone of the account) the custom-domain tests, which connect
// and remove `edt-<digits>-<label>.<zone>` subdomains. Public GETs go to the real r2.dev hosts.
const env = process.env;
const token = env.CLOUDFLARE_API_TOKEN;
const accountId = env.CLOUDFLARE_ACCOUNT_ID;

if (token && accountId) {
  const baseUrl = env.CLOUDFLARE_BASE_URL ?? 'https://api.cloudflare.com/client/v4';
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
  // The REST objects endpoint (what `wrangler r2 object put --remote` calls,
  // docs/sources/r2-api.md#objects).
  const objectUrl = (bucket: string, key: string) =>
    `${baseUrl}/accounts/${accountId}/r2/buckets/${bucket}/objects/${encodeURIComponent(key)}`;
  const jurisdictionHeader = (j?: string): Record<string, string> => (j ? { 'cf-r2-jurisdiction': j } : {});
  r2ApiConformance({
    name: 'r2-api (api.cloudflare.com)',
    fetch: (input, init) => fetch(input, init),
    baseUrl,
    accountId,
    auth: bearer(token),
    ...(env.CLOUDFLARE_R2_READ_TOKEN ? { authReadOnly: bearer(env.CLOUDFLARE_R2_READ_TOKEN) } : {}),
    ...(env.CLOUDFLARE_NO_R2_TOKEN ? { authWithoutR2: bearer(env.CLOUDFLARE_NO_R2_TOKEN) } : {}),
    ...(env.R2_S3_ENDPOINT && env.R2_ACCESS_KEY_ID && env.R2_SECRET_ACCESS_KEY
      ? {
          s3: {
            endpoint: env.R2_S3_ENDPOINT,
            credentials: { accessKeyId: env.R2_ACCESS_KEY_ID, secretAccessKey: env.R2_SECRET_ACCESS_KEY },
          },
        }
      : {}),
    publicFetch: (input, init) => fetch(input, init),
    ...(env.CLOUDFLARE_R2_ZONE_ID && env.CLOUDFLARE_R2_ZONE_NAME
      ? { zone: { id: env.CLOUDFLARE_R2_ZONE_ID, name: env.CLOUDFLARE_R2_ZONE_NAME } }
      : {}),
    putObject: async (bucket, key, body, j) => {
      const res = await fetch(objectUrl(bucket, key), {
        method: 'PUT',
        headers: { ...bearer(token), ...jurisdictionHeader(j) },
        body,
      });
      if (!res.ok) throw new Error(`put ${bucket}/${key}: ${res.status} ${await res.text()}`);
    },
    // Refused (a lock): rejects with the API's answer; an object already gone is no error.
    deleteObject: async (bucket, key, j) => {
      const res = await fetch(objectUrl(bucket, key), {
        method: 'DELETE',
        headers: { ...bearer(token), ...jurisdictionHeader(j) },
      });
      if (!res.ok && res.status !== 404) throw new Error(`delete ${bucket}/${key}: ${res.status} ${await res.text()}`);
    },
    objectExists: async (bucket, key, j) => {
      const res = await fetch(objectUrl(bucket, key), { headers: { ...bearer(token), ...jurisdictionHeader(j) } });
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 404) throw new Error(`get ${bucket}/${key}: ${res.status}`);
      return res.status === 200;
    },
    differences: realApiDifferences,
    timeout: 60_000,
  });
} else {
  const missing = ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID'].filter((k) => !env[k]);
  it.skip(`r2-api conformance on the real API: skipped, because ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`, () => {});
}
