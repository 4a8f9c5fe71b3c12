/**
 * A SigV4-signed GET, as an S3 client sends it (header auth, `UNSIGNED-PAYLOAD`): what the double
 * sends when it is the client, reaching Sippy's source (lib/r2-api/sippy.ts). The signature comes
 * from the verifier's own derivation (sigv4.ts `signString`), so the double signs as it checks.
 */
import { digestHex } from '../hash.js';
import { encodeRfc3986, signString } from './sigv4.js';

export interface SigningKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** `YYYYMMDDTHHMMSSZ` for epoch ms. */
const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** The path of `key` in `bucket`, path style, each segment RFC 3986-encoded (as the AWS SDK signs it). */
export const objectPath = (bucket: string, key: string): string =>
  `/${encodeRfc3986(bucket)}/${key.split('/').map(encodeRfc3986).join('/')}`;

/** The headers of a GET of `url` (its path already encoded, no query) signed with `key` for `region` at `now`. */
export async function signedGetHeaders(url: URL, key: SigningKey, region: string, now: number): Promise<Headers> {
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const payload = 'UNSIGNED-PAYLOAD';
  const signedHeaders = 'host;x-amz-content-sha256;x-amz-date';
  const canonical = [
    'GET',
    url.pathname,
    '',
    `host:${url.host}\nx-amz-content-sha256:${payload}\nx-amz-date:${date}\n`,
    signedHeaders,
    payload,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const signature = await signString(
    key.secretAccessKey,
    day,
    region,
    's3',
    ['AWS4-HMAC-SHA256', date, scope, digestHex('sha256', canonical)].join('\n'),
  );
  return new Headers({
    'x-amz-content-sha256': payload,
    'x-amz-date': date,
    authorization: `AWS4-HMAC-SHA256 Credential=${key.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  });
}
