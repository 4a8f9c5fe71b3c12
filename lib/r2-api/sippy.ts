/**
 * Sippy over the API (issue 28, point 2): `PUT/GET/DELETE /accounts/{id}/r2/buckets/{bucket}/sippy`,
 * as `wrangler r2 bucket sippy enable|get|disable` and the SDK's `r2.buckets.sippy` call them, and
 * the source the double reads missing keys from (lib/bucket/sippy.ts has the behaviour).
 *
 * - PUT takes wrangler's two shapes: `source: { provider: 'aws', bucket, region, accessKeyId,
 *   secretAccessKey }` or `{ provider: 'gcs', bucket, clientEmail, privateKey }`, and the schema's
 *   S3-compatible one (`r2_enable_sippy_s3`, cloudflare/api-schemas 2026-08-14): `{ provider: 's3',
 *   bucketUrl, accessKeyId, secretAccessKey }`, with `destination: { provider: 'r2', accessKeyId,
 *   secretAccessKey }`; a field missing, or another provider (the SDK's `azure`, which wrangler does
 *   not send), is 10040 with the reason (our reading). It answers, and GET answers, the SDK's
 *   `Sippy`: `enabled`, the source without its secrets (`bucketUrl` for `s3`), the destination
 *   (`provider: 'r2'`, the account, the bucket, the R2 key id).
 * - GET of a bucket without Sippy is 404 10007: the code wrangler's `sippy get` treats as "No Sippy
 *   configuration found" (wrangler 4.86 src/r2/sippy.ts, NO_SUCH_OBJECT_KEY); the text is R2's for
 *   10007 (production's for this case is not established).
 * - DELETE answers `{ enabled: false }` (the SDK's SippyDeleteResponse), also when it was off.
 *
 * The source: AWS, GCS and an `s3` provider's `bucketUrl` are not reached. The user names an
 * S3-compatible endpoint for the account (`useSippySource`; `api serve --sippy-endpoint URL`), the
 * double's stand-in for the provider: a missing key is fetched as `GET <endpoint>/<source
 * bucket>/<key>`, path style (an `s3` source's bucket is the first path segment of its `bucketUrl`,
 * else the first label of its host), signed with SigV4 for the endpoint's region (`auto` by
 * default) with the source's key pair (AWS, S3), or the
 * client email and private key as key id and secret (GCS: a stand-in that checks no signature,
 * such as `r2 serve` without credentials, takes it). 200 copies the object in with its HTTP and
 * custom metadata; any other answer, or no endpoint named, leaves the key missing.
 */
import { ok } from '../api/envelope.js';
import { fail } from '../api/errors.js';
import type { Incoming, RouteParams } from '../api/router.js';
import { accountState, type AccountHolder } from '../account/state.js';
import type { BackendHost } from '../support/backend.js';
import type { Account } from '../account/account.js';
import type { SippySettings, SippySource } from '../bucket/sippy.js';
import { R2 } from '../bucket/backend.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import { systemClock } from '../clock.js';
import { customFieldsFromHeaders, httpFieldsFromHeaders } from '../s3/metadata.js';
import { objectPath, signedGetHeaders } from '../s3/sign.js';
import { r2ApiErrors } from './errors.js';
import type { R2Table } from './routes.js';
import { jsonObject } from './rules-body.js';
import { namedBucket, type R2Service } from './service.js';
import { changeSettings, readSettings } from './settings.js';

/** The S3-compatible endpoint standing in for the account's Sippy sources. */
export interface SippyEndpoint {
  /** Origin (and optional base path) of an S3-compatible server, e.g. a second `r2 serve`'s. */
  readonly endpoint: string;
  /** The region requests are signed for (default `auto`, what `r2 serve` takes). */
  readonly region?: string;
  /** The fetch that reaches it (default the global one): e.g. another in-process `S3Api#fetch`. */
  readonly fetch?: (request: Request) => Promise<Response>;
}

const endpoints = new WeakMap<BackendHost, SippyEndpoint>();

/** Fetches a key from the account's named endpoint, or undefined (no endpoint, or not a 200). */
function sourceFor(state: BackendHost): SippySource {
  return async (settings, key) => {
    const named = endpoints.get(state);
    if (!named) return undefined;
    const url = new URL(named.endpoint.replace(/\/+$/, '') + objectPath(settings.bucket, key));
    const signing =
      settings.provider === 'gcs'
        ? { accessKeyId: settings.clientEmail!, secretAccessKey: settings.privateKey! }
        : { accessKeyId: settings.accessKeyId!, secretAccessKey: settings.secretAccessKey! };
    const headers = await signedGetHeaders(url, signing, named.region ?? 'auto', systemClock());
    const res = await (named.fetch ?? fetch)(new Request(url, { headers }));
    if (res.status !== 200) {
      await res.body?.cancel();
      return undefined;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    return {
      body: { chunks: [bytes], size: bytes.byteLength },
      http: httpFieldsFromHeaders(res.headers),
      custom: customFieldsFromHeaders(res.headers),
    };
  };
}

/**
 * Names the S3-compatible endpoint that stands in for every Sippy source of the account (AWS and
 * GCS alike); undefined stops fetching. Buckets with Sippy on copy missing keys in from it.
 */
export function useSippySource(target: Account | AccountHolder, endpoint: SippyEndpoint | undefined): void {
  const state = accountState('account' in target ? target.account : target);
  if (endpoint) endpoints.set(state, endpoint);
  else endpoints.delete(state);
  for (const bucket of state.backend(R2).all()) install(bucketLayer(bucket), state);
}

function install(layer: BucketLayer | undefined, state: BackendHost): void {
  if (layer && !layer.sippySource) layer.sippySource = sourceFor(state);
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** wrangler's body as settings, or 10040 with what is wrong. */
function settingsFrom(body: Record<string, unknown>): SippySettings {
  const source = body.source as Record<string, unknown> | undefined;
  const destination = body.destination as Record<string, unknown> | undefined;
  if (!source || typeof source !== 'object') throw r2ApiErrors.malformed('source is required');
  if (!destination || typeof destination !== 'object') throw r2ApiErrors.malformed('destination is required');
  if (destination.provider !== undefined && destination.provider !== 'r2')
    throw r2ApiErrors.malformed("destination.provider must be 'r2'");
  const destinationAccessKeyId = text(destination.accessKeyId);
  if (!destinationAccessKeyId || !text(destination.secretAccessKey))
    throw r2ApiErrors.malformed('destination.accessKeyId and destination.secretAccessKey are required');
  if (source.provider === 's3') {
    const bucketUrl = text(source.bucketUrl);
    const accessKeyId = text(source.accessKeyId);
    const secretAccessKey = text(source.secretAccessKey);
    if (!bucketUrl || !accessKeyId || !secretAccessKey)
      throw r2ApiErrors.malformed(
        'source.bucketUrl, source.accessKeyId and source.secretAccessKey are required for s3',
      );
    const bucket = bucketOfUrl(bucketUrl);
    if (!bucket) throw r2ApiErrors.malformed('source.bucketUrl must be the http(s) URL of a bucket');
    return { provider: 's3', bucket, bucketUrl, accessKeyId, secretAccessKey, destinationAccessKeyId };
  }
  const bucket = text(source.bucket);
  if (!bucket) throw r2ApiErrors.malformed('source.bucket is required');
  if (source.provider === 'aws') {
    const region = text(source.region);
    const accessKeyId = text(source.accessKeyId);
    const secretAccessKey = text(source.secretAccessKey);
    if (!region || !accessKeyId || !secretAccessKey)
      throw r2ApiErrors.malformed('source.region, source.accessKeyId and source.secretAccessKey are required for aws');
    return { provider: 'aws', bucket, region, accessKeyId, secretAccessKey, destinationAccessKeyId };
  }
  if (source.provider === 'gcs') {
    const clientEmail = text(source.clientEmail);
    const privateKey = text(source.privateKey);
    if (!clientEmail || !privateKey)
      throw r2ApiErrors.malformed('source.clientEmail and source.privateKey are required for gcs');
    return { provider: 'gcs', bucket, clientEmail, privateKey, destinationAccessKeyId };
  }
  throw r2ApiErrors.malformed("source.provider must be 'aws', 'gcs' or 's3'");
}

/** The bucket an S3-compatible URL names: its first path segment (path style), else its host's first label. */
function bucketOfUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const segment = url.pathname.split('/').find((p) => p !== '');
  if (segment) {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  // Virtual-hosted style: a name with a dot, not an address.
  const host = url.hostname;
  if (!host.includes('.') || host.startsWith('[') || /^[\d.]+$/.test(host)) return undefined;
  return host.split('.')[0];
}

/** The SDK's `Sippy`: the source without its secrets. */
const shown = (s: SippySettings, account: string, bucket: string) => ({
  enabled: true,
  source:
    s.provider === 's3'
      ? { provider: s.provider, bucketUrl: s.bucketUrl }
      : { provider: s.provider, bucket: s.bucket, ...(s.provider === 'aws' ? { region: s.region } : {}) },
  destination: { provider: 'r2', account, bucket, accessKeyId: s.destinationAccessKeyId },
});

const notConfigured = () => fail(404, 10007, 'The specified key does not exist.');

const target = (svc: R2Service, req: Incoming, params: RouteParams) => {
  const { name, bucket } = namedBucket(svc, req, params);
  return { name, bucket, account: params.account ?? svc.account };
};

const methods = {
  GET: async (svc: R2Service, req: Incoming, params: RouteParams) => {
    const t = target(svc, req, params);
    const settings = await readSettings(t.bucket, 'getBucketSippy', (c) => c.sippy);
    if (!settings) throw notConfigured();
    return ok(shown(settings, t.account.id, t.name));
  },
  PUT: async (svc: R2Service, req: Incoming, params: RouteParams) => {
    const t = target(svc, req, params);
    const settings = settingsFrom(await jsonObject(req));
    await changeSettings(t.bucket, 'putBucketSippy', (c) => (c.sippy = settings));
    install(bucketLayer(t.bucket), t.account);
    return ok(shown(settings, t.account.id, t.name));
  },
  DELETE: async (svc: R2Service, req: Incoming, params: RouteParams) => {
    await changeSettings(target(svc, req, params).bucket, 'deleteBucketSippy', (c) => (c.sippy = undefined));
    return ok({ enabled: false });
  },
};

export const sippyRoutes: R2Table = (rest) => (rest.length === 2 && rest[1] === 'sippy' ? methods : undefined);
