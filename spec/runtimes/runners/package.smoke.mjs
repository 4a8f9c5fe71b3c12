// The whole package as a Bun or Deno user meets it, as a plain script (copied next to the built
// package and run by ../runners.test.ts with `bun` and `deno run -A`): a Worker's put patterns,
// createEnv from an object and from a config file, the S3 and DNS views, a server on loopback
// (`edge-doubles api serve`'s), and the plain assertions. Prints one JSON line of what it saw.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsClient } from 'aws4fetch';
import { AssertionError, assertNoObject, assertObject, Bucket, createEnv, DnsApi, S3Api } from 'edge-doubles';
import { createEnv as createEnvFromFile, startApiServer } from 'edge-doubles/node';

const seen = {};
const text = async (bucket, key) => (await bucket.get(key))?.text();

// The put patterns of a Worker.
const bucket = new Bucket();
const outcome = (p) =>
  p.then(
    () => 'accepted',
    (e) => `${e.constructor.name}: ${e.message}`,
  );
seen.requestBody = await outcome(
  bucket.put('req', new Request('https://w/', { method: 'POST', body: 'from a request' }).body),
);
seen.responseBody = await outcome(bucket.put('res', new Response('from a response').body));
seen.blobStream = await outcome(bucket.put('blob', new Blob(['from a blob']).stream()));
const [branch, other] = new Response('teed').body.tee();
seen.teeBranch = await outcome(bucket.put('tee', branch));
await other.cancel();
const upload = await bucket.createMultipartUpload('mp');
const part1 = await upload.uploadPart(1, new Response('a'.repeat(5 * 1024 * 1024)).body);
const part2 = await upload.uploadPart(2, new Response('tail').body);
seen.multipartSize = (await upload.complete([part1, part2])).size;
seen.jsStream = await outcome(
  bucket.put('js', new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array([1])), c.close()) })),
);
seen.stored = [
  await text(bucket, 'req'),
  await text(bucket, 'res'),
  await text(bucket, 'blob'),
  await text(bucket, 'tee'),
];

// createEnv from an object and from a wrangler.toml.
const config = {
  name: 'w',
  compatibility_date: '2025-01-01',
  r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }],
  vars: { MODE: 'test' },
};
const fromObject = createEnv(config).env;
await fromObject.FILES.put('a', 'x');
seen.createEnvObject = [fromObject.MODE, await text(fromObject.FILES, 'a')];
const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-smoke-'));
writeFileSync(
  join(dir, 'wrangler.toml'),
  'name = "w"\ncompatibility_date = "2025-01-01"\n[[r2_buckets]]\nbinding = "FILES"\nbucket_name = "files"\n',
);
const fromFile = createEnvFromFile(join(dir, 'wrangler.toml')).env;
seen.createEnvFile = (await fromFile.FILES.put('b', 'y')).etag;

// The S3 view over the same Bucket, signed as a client signs.
const credentials = { accessKeyId: 'test-key-id', secretAccessKey: 'test-secret' };
const s3 = new S3Api({ buckets: { files: bucket }, credentials: [credentials] });
const signer = new AwsClient({ ...credentials, service: 's3', region: 'auto' });
const endpoint = 'https://account.r2.cloudflarestorage.com/files';
await s3.fetch(await signer.sign(`${endpoint}/from-s3`, { method: 'PUT', body: 'over s3' }));
seen.s3 = [await text(bucket, 'from-s3'), await (await s3.fetch(await signer.sign(`${endpoint}/res`))).text()];

// The DNS view.
const dns = new DnsApi({
  zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '198.51.100.4' }] }],
});
const zone = dns.zone('example.com').id;
const listed = await (
  await dns.fetch(`https://api.cloudflare.com/client/v4/zones/${zone}/dns_records`, {
    headers: { Authorization: 'Bearer t' },
  })
).json();
seen.dns = listed.result.map((r) => `${r.type} ${r.name} ${r.content}`);

// A server on loopback, as `edge-doubles api serve` starts it.
const server = await startApiServer({ buckets: ['photos'] });
const buckets = await (
  await fetch(`${server.baseURL}/accounts/${server.api.account.id}/r2/buckets`, {
    headers: { Authorization: 'Bearer t' },
  })
).json();
seen.apiServer = buckets.result.buckets.map((b) => b.name);
await server.close();

// The plain assertions.
assertObject(bucket, 'res', { body: 'from a response' });
assertNoObject(bucket, 'nothing');
try {
  assertObject(bucket, 'res', { body: 'other' });
  seen.assertionFailure = 'none';
} catch (e) {
  seen.assertionFailure = e instanceof AssertionError ? 'AssertionError' : String(e);
}

console.log(JSON.stringify(seen));
