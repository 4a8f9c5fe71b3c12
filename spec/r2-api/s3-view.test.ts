/**
 * The S3 view over the API's account: R2's jurisdiction host names address that jurisdiction's
 * buckets (`<account id>.eu.r2.cloudflarestorage.com`), and `startApiServer` serves the S3 view on
 * its own port for R2's host names, so the buckets wrangler or the SDK made are the ones S3 sees.
 */
import { Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListBucketsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { createEnv, S3Api, type Bucket } from '../../lib/index.js';
import { CloudflareApi } from '../../lib/cloudflare-api/index.js';
import { startApiServer } from '../../lib/node/index.js';
import { CREDENTIALS, sdk } from '../s3/support.js';

const quiet = { onWarning: () => {} };

describe('the S3 view and jurisdictions', () => {
  it("the eu host name reaches the eu bucket of a name, never the default one's", async () => {
    const api = new CloudflareApi({ buckets: ['logs'] });
    api.addBucket('logs', { jurisdiction: 'eu' });
    const s3 = new S3Api({ api, credentials: [CREDENTIALS] });
    const id = api.account.id;
    const eu = sdk(s3.fetch, `https://${id}.eu.r2.cloudflarestorage.com`);
    const plain = sdk(s3.fetch, `https://${id}.r2.cloudflarestorage.com`);
    await eu.send(new PutObjectCommand({ Bucket: 'logs', Key: 'k', Body: 'in the eu' }));
    await expect(plain.send(new GetObjectCommand({ Bucket: 'logs', Key: 'k' }))).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
    const { env } = createEnv<{ EU: Bucket }>(
      { r2_buckets: [{ binding: 'EU', bucket_name: 'logs', jurisdiction: 'eu' }] },
      { ...quiet, api },
    );
    expect(await (await env.EU.get('k'))!.text()).toBe('in the eu');

    await eu.send(new CreateBucketCommand({ Bucket: 'only-eu' }));
    expect((await eu.send(new ListBucketsCommand({}))).Buckets!.map((b) => b.Name)).toEqual(['logs', 'only-eu']);
    expect((await plain.send(new ListBucketsCommand({}))).Buckets!.map((b) => b.Name)).toEqual(['logs']);
    const listed = await api.fetch(`https://api.cloudflare.com/client/v4/accounts/${id}/r2/buckets`, {
      headers: { authorization: 'Bearer t', 'cf-r2-jurisdiction': 'eu' },
    });
    expect((await listed.json()).result.buckets.map((b: { name: string }) => b.name)).toEqual(['logs', 'only-eu']);
  });
});

describe('startApiServer serves the S3 view for R2 host names', () => {
  it("a client aiming R2's host name at the server reaches the bucket the API made", async () => {
    const server = await startApiServer({ s3Credentials: [CREDENTIALS] });
    try {
      const made = await fetch(`${server.baseURL}/accounts/${server.api.account.id}/r2/buckets`, {
        method: 'POST',
        headers: { authorization: 'Bearer t' },
        body: JSON.stringify({ name: 'shared' }),
      });
      expect(made.status).toBe(200);
      // Every name resolves to the server, as `curl --resolve` or an /etc/hosts line would make it.
      const agent = new Agent({
        lookup: (_host, _options, done) =>
          done(null, [{ address: '127.0.0.1', family: 4 }] as never, undefined as never),
      });
      const client = new S3Client({
        region: 'auto',
        endpoint: `http://${server.api.account.id}.r2.cloudflarestorage.com:${server.port}`,
        forcePathStyle: true,
        credentials: CREDENTIALS,
        requestHandler: new NodeHttpHandler({ httpAgent: agent }),
      });
      await client.send(new PutObjectCommand({ Bucket: 'shared', Key: 'k', Body: 'via S3 on the API port' }));
      expect(await (await server.api.account.bucket('shared')!.get('k'))!.text()).toBe('via S3 on the API port');
      agent.destroy();
    } finally {
      await server.close();
    }
  });
});
