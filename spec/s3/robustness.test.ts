/** Bad input never crashes the S3 view and never changes what is stored. */
import { describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';

const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });

const NASTY: [string, RequestInit][] = [
  ['/photos/%E0%A4%A', {}],
  ['//photos//k', {}],
  ['/photos/k?uploadId=&partNumber=', { method: 'PUT', body: 'x' }],
  ['/photos/k?uploadId=nope&partNumber=99999999999999999999', { method: 'PUT', body: 'x' }],
  [
    '/photos/k?uploadId=nope',
    { method: 'POST', body: '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part>' },
  ],
  [
    '/photos/k?uploadId=nope',
    {
      method: 'POST',
      body: '<!DOCTYPE x [<!ENTITY a "aaaaaaaa">]><CompleteMultipartUpload>&a;&a;</CompleteMultipartUpload>',
    },
  ],
  ['/photos?delete', { method: 'POST', body: '<Delete><Object><Key><b>nested</b></Key></Object></Delete>' }],
  ['/photos?delete', { method: 'POST', body: 'not xml at all' }],
  ['/photos/k', { method: 'PUT', body: 'x', headers: { 'content-md5': '%%%' } }],
  ['/photos/k', { method: 'PUT', body: 'x', headers: { 'x-amz-checksum-sha256': 'AAAA' } }],
  ['/photos/k', { method: 'PUT', body: 'x', headers: { 'x-amz-server-side-encryption-customer-key': 'short' } }],
  ['/photos/k', { method: 'PUT', body: 'x', headers: { 'if-match': '"unterminated' } }],
  ['/photos/k', { method: 'PUT', headers: { 'x-amz-copy-source': '/photos/%' } }],
  ['/photos/k', { method: 'PUT', body: '5\r\nab', headers: { 'content-encoding': 'aws-chunked' } }],
  ['/photos/k', { headers: { range: 'bytes=--1' } }],
  ['/photos?list-type=2&max-keys=1e400', {}],
  ['/photos?list-type=2&continuation-token=%FF', {}],
  ['/photos?uploads&max-uploads=-5', {}],
  ['/photos/' + 'k'.repeat(2000), { method: 'PUT', body: 'x' }],
  ['/photos/k', { method: 'PUT', body: 'x', headers: { 'x-amz-meta-big': 'v'.repeat(9000) } }],
  ['/photos?cors', { method: 'PUT', body: '<CORSConfiguration/>' }],
];

describe('robustness', () => {
  it('answers every malformed request with an S3 response (no rejection, no 500) and leaves the bucket as it was', async () => {
    const { api, photos } = setup();
    await photos.put('k', 'original', { customMetadata: { keep: 'me' } });
    for (const [path, init] of NASTY) {
      const res = await api.fetch(await signer.sign(`${ENDPOINT}${path}`, init));
      const e = await errorOf(res);
      expect([path, e.status < 500 || e.status === 501]).toEqual([path, true]);
      expect([path, e.status]).not.toEqual([path, 200]);
    }
    const kept = await photos.get('k');
    expect(await kept!.text()).toBe('original');
    expect(kept!.customMetadata).toEqual({ keep: 'me' });
    expect((await photos.list()).objects.map((o) => o.key)).toEqual(['k']);
  });

  it('an encoded-word that is not valid base64 is stored as sent', async () => {
    const { api, photos } = setup();
    const res = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos/odd`, {
        method: 'PUT',
        body: 'x',
        headers: { 'x-amz-meta-a': '=?UTF-8?B?!!!?=' },
      }),
    );
    expect(res.status).toBe(200);
    expect((await photos.head('odd'))!.customMetadata).toEqual({ a: '=?UTF-8?B?!!!?=' });
  });
});

describe('api.fetch as a fetch', () => {
  it('rejects (never throws) for a URL it cannot parse, as fetch does', async () => {
    const { api } = setup();
    let thrown: unknown;
    let promise: Promise<Response> | undefined;
    try {
      promise = api.fetch('not a url');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeUndefined();
    await expect(promise).rejects.toThrow(TypeError);
  });
});
