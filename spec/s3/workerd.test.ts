import { AwsClient } from 'aws4fetch';
import type { Miniflare } from 'miniflare';
import { startWorkerdWorker, type WorkerdWorker } from '../helpers/workerd-worker.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS } from './fixtures/worker.js';

// lib/s3 must run in workerd: bundle a Worker that serves S3Api and run it in the real runtime,
// without nodejs_compat (so SigV4 takes the WebCrypto path).
let worker: WorkerdWorker;
let mf: Miniflare;
/** Miniflare's own origin: the Host header the Worker sees, so the one to sign. */
let origin: string;

beforeAll(async () => {
  worker = await startWorkerdWorker('spec/s3/fixtures/worker.ts');
  mf = worker.mf;
  origin = worker.origin;
}, 60_000);

afterAll(async () => {
  await worker?.dispose();
});

const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
async function send(url: string, init: RequestInit = {}): Promise<Response> {
  const signed = await signer.sign(url, init);
  return mf.dispatchFetch(signed.url, {
    method: signed.method,
    headers: [...signed.headers],
    body: init.body as string | undefined,
  }) as unknown as Response;
}

describe('S3Api inside workerd', () => {
  it('verifies signatures, stores through S3 and reads through the binding with the same etag', async () => {
    const put = await send(`${origin}/photos/from-s3.txt`, { method: 'PUT', body: 'in workerd' });
    expect(put.status, await put.clone().text()).toBe(200);
    const seen = (await (await mf.dispatchFetch(`${origin}/binding/from-s3.txt`)).json()) as {
      text: string;
      etag: string;
    };
    expect(seen).toEqual({ text: 'in workerd', etag: put.headers.get('etag') });
    const list = await send(`${origin}/photos?list-type=2`);
    expect(await list.text()).toContain('<Key>from-s3.txt</Key>');
  });

  it('refuses a wrong secret with SignatureDoesNotMatch', async () => {
    const bad = new AwsClient({ ...CREDENTIALS, secretAccessKey: 'wrong', service: 's3', region: 'auto' });
    const signed = await bad.sign(`${origin}/photos/from-s3.txt`);
    const res = await mf.dispatchFetch(signed.url, { headers: [...signed.headers] });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });
});
