import { CloudflareApi } from '../../lib/cloudflare-api/index.js';
import { S3Api } from '../../lib/s3.js';
import { Account } from '../../lib/account/index.js';
import { r2ApiConformance } from '../r2-api/index.js';

// The Cloudflare API double in Node: three tokens (R2 write, R2 read, none), and the account's
// buckets written through the binding for the tests that need a bucket that is not empty.
const account = new Account({
  credentials: [
    { token: 'conformance-writer', r2: 'write' },
    { token: 'conformance-reader', r2: 'read' },
    { token: 'conformance-no-r2', r2: 'none' },
  ],
});
// A zone of the account for the custom-domain tests.
const api = new CloudflareApi({ account, zones: [{ name: 'conformance.example' }] });
const zone = api.zone('conformance.example')!;
// R2's S3 endpoint over the same account, for the lifecycle-through-S3 tests.
const s3Credentials = { accessKeyId: 'conformance-key', secretAccessKey: 'conformance-secret' };
const s3 = new S3Api({ api, credentials: [s3Credentials] });
const bucket = (name: string, jurisdiction?: string) => {
  const b = jurisdiction === undefined || jurisdiction === 'default' ? account.bucket(name) : undefined;
  if (!b) throw new Error(`no bucket ${name}${jurisdiction ? ` in ${jurisdiction}` : ''}`);
  return b;
};

r2ApiConformance({
  name: 'r2-api-double',
  fetch: api.fetch,
  baseUrl: 'https://api.cloudflare.com/client/v4',
  accountId: account.id,
  auth: { authorization: 'Bearer conformance-writer' },
  authReadOnly: { authorization: 'Bearer conformance-reader' },
  authWithoutR2: { authorization: 'Bearer conformance-no-r2' },
  putObject: async (name, key, body, jurisdiction) => {
    await bucket(name, jurisdiction).put(key, body);
  },
  deleteObject: async (name, key, jurisdiction) => {
    await bucket(name, jurisdiction).delete(key);
  },
  s3: { endpoint: `https://${account.id}.r2.cloudflarestorage.com`, credentials: s3Credentials, fetch: s3.fetch },
  // The account's public hosts (r2.dev, custom domains), answered in process.
  publicFetch: api.public.fetch,
  zone: { id: zone.id, name: zone.name },
  objectExists: async (name, key, jurisdiction) => (await bucket(name, jurisdiction).head(key)) !== null,
});
