import { md5 as md5Bytes } from '@noble/hashes/legacy.js';
import { expect } from '../../runner.js';
import { defineGroup, loadXmlParser, type S3Context } from '../harness.js';

/** Content-MD5 of a body, which DeleteObjects requires. */
const md5 = async (s: string) => btoa(String.fromCharCode(...md5Bytes(new TextEncoder().encode(s))));

async function seed(c: S3Context, names: string[]): Promise<string[]> {
  const keys = names.map((n) => c.key(n));
  for (const k of keys) await c.send(k, { method: 'PUT', body: 'x' });
  return keys;
}

// Listing (docs/sources/r2-s3.md#listing, docs/sources/r2-s3.md#deleteobjects).
export const listing = defineGroup('listing', (t) => {
  t.test('v2 pages by continuation token, KeyCount counts contents and prefixes', async (c) => {
    const keys = await seed(c, ['a', 'b', 'c', 'd/1', 'd/2']);
    const first = await c.client.send(
      new c.sdk.ListObjectsV2Command({ Bucket: c.bucket, Prefix: c.key(''), MaxKeys: 2 }),
    );
    expect(first.Contents!.map((o) => o.Key)).toEqual(keys.slice(0, 2));
    expect([first.IsTruncated, first.KeyCount, first.MaxKeys]).toEqual([true, 2, 2]);
    const rest = await c.client.send(
      new c.sdk.ListObjectsV2Command({
        Bucket: c.bucket,
        Prefix: c.key(''),
        Delimiter: '/',
        ContinuationToken: first.NextContinuationToken,
      }),
    );
    expect(rest.Contents!.map((o) => o.Key)).toEqual([keys[2]]);
    expect(rest.CommonPrefixes).toEqual([{ Prefix: c.key('d/') }]);
    expect([rest.KeyCount, rest.IsTruncated, rest.NextContinuationToken]).toEqual([2, false, undefined]);
    expect(rest.ContinuationToken).toBe(first.NextContinuationToken);
  });

  t.test('v1 with a delimiter: NextMarker is the last item returned, a common prefix included', async (c) => {
    await seed(c, ['nm/a.txt', 'nm/sub/c.txt', 'nm/z.txt']);
    const r = await c.client.send(
      new c.sdk.ListObjectsCommand({ Bucket: c.bucket, Prefix: c.key('nm/'), Delimiter: '/', MaxKeys: 2 }),
    );
    expect(r.Contents!.map((o) => o.Key)).toEqual([c.key('nm/a.txt')]);
    expect(r.CommonPrefixes).toEqual([{ Prefix: c.key('nm/sub/') }]);
    expect([r.IsTruncated, r.NextMarker]).toEqual([true, c.key('nm/sub/')]);
  });

  t.test('v1 without a delimiter still gives NextMarker when truncated', async (c) => {
    const keys = await seed(c, ['a', 'b']);
    const r = await c.client.send(new c.sdk.ListObjectsCommand({ Bucket: c.bucket, Prefix: c.key(''), MaxKeys: 1 }));
    expect([r.IsTruncated, r.NextMarker]).toEqual([true, keys[0]]);
  });

  t.test('continuation-token on v1 is 400', async (c) => {
    const r = await c.send('', { query: 'continuation-token=abc' });
    expect([r.status, r.error?.Message]).toEqual([400, 'continuation-token not supported in ListObjects']);
  });

  t.test(
    'max-keys: 0 lists nothing but says truncated; 1.5 is floored; abc and Infinity are 400 InvalidMaxKeys; 5000 is echoed',
    async (c) => {
      await seed(c, ['a', 'b']);
      const p = encodeURIComponent(c.key(''));
      const zero = await c.send('', { query: `list-type=2&prefix=${p}&max-keys=0` });
      expect(zero.text).not.toContain('<Contents>');
      expect(zero.text).toContain('<IsTruncated>true</IsTruncated>');
      const frac = await c.send('', { query: `list-type=2&prefix=${p}&max-keys=1.5` });
      expect(frac.text).toContain('<MaxKeys>1</MaxKeys>');
      for (const v of ['abc', 'Infinity', '-1']) {
        const r = await c.send('', { query: `list-type=2&max-keys=${v}` });
        expect([v, r.status, r.error?.Code]).toEqual([v, 400, 'InvalidMaxKeys']);
      }
      expect((await c.send('', { query: `list-type=2&prefix=${p}&max-keys=5000` })).text).toContain(
        '<MaxKeys>5000</MaxKeys>',
      );
    },
  );

  t.test('encoding-type=url encodes keys, slashes included; other values are 501', async (c) => {
    await seed(c, ['ls/sub/c.txt']);
    const r = await c.send('', { query: `list-type=2&encoding-type=url&prefix=${encodeURIComponent(c.key('ls/'))}` });
    expect(r.text).toContain(`<Key>${encodeURIComponent(c.key('ls/sub/c.txt'))}</Key>`);
    expect(r.text).toContain('<EncodingType>url</EncodingType>');
    const weird = await c.send('', { query: 'list-type=2&encoding-type=weird' });
    expect([weird.status, weird.error?.Message]).toEqual([501, 'Unrecognized encoding-type "weird" not implemented']);
  });

  t.test('unknown list parameters and list types are 501', async (c) => {
    const v1 = await c.send('', { query: 'foobar=1' });
    expect([v1.status, v1.error?.Message]).toEqual([501, 'ListObjectsV1 search parameter foobar not implemented']);
    const v3 = await c.send('', { query: 'list-type=3' });
    expect([v3.status, v3.error?.Message]).toEqual([501, 'ListObjectsV3 not implemented']);
  });

  t.test('DeleteObjects with Quiet lists every key as deleted, missing ones too', async (c) => {
    const [a] = await seed(c, ['a']);
    const r = await c.client.send(
      new c.sdk.DeleteObjectsCommand({
        Bucket: c.bucket,
        Delete: { Quiet: true, Objects: [{ Key: a }, { Key: c.key('missing') }] },
      }),
    );
    expect(r.Deleted!.map((d) => d.Key)).toEqual([a, c.key('missing')]);
    expect((await c.send(a!, { method: 'HEAD' })).status).toBe(404);
  });

  t.test('DeleteObjects decodes character references in keys and names the decoded key', async (c) => {
    const key = c.key(`it's "q" & <x>`);
    await c.client.send(new c.sdk.PutObjectCommand({ Bucket: c.bucket, Key: key, Body: 'x' }));
    // Go's encoding/xml escaping (rclone, minio-go): `'` as `&#39;`, `"` as `&#34;`.
    const escaped = key
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll("'", '&#39;')
      .replaceAll('"', '&#34;');
    const xml = `<Delete><Object><Key>${escaped}</Key></Object></Delete>`;
    const r = await c.send('', {
      method: 'POST',
      query: 'delete',
      body: xml,
      headers: { 'content-md5': await md5(xml) },
    });
    expect(r.status, r.text).toBe(200);
    const { XMLParser } = await loadXmlParser();
    const doc = new XMLParser({ parseTagValue: false, trimValues: false }).parse(r.text) as {
      DeleteResult: { Deleted: { Key: string } };
    };
    expect(doc.DeleteResult.Deleted.Key).toBe(key);
    expect((await c.send(key, { method: 'HEAD' })).status).toBe(404);
  });

  t.test(
    'DeleteObjects with an entity XML does not define (`&nbsp;`) is 400 MalformedXML, and nothing is deleted',
    async (c) => {
      const [a] = await seed(c, ['a']);
      const xml = `<Delete><Object><Key>${a}</Key></Object><Object><Key>&nbsp;</Key></Object></Delete>`;
      const r = await c.send('', {
        method: 'POST',
        query: 'delete',
        body: xml,
        headers: { 'content-md5': await md5(xml) },
      });
      expect([r.status, r.error?.Code]).toEqual([400, 'MalformedXML']);
      expect((await c.send(a!, { method: 'HEAD' })).status).toBe(200);
    },
    { difference: 'miniflare-lenient-xml' },
  );

  t.test('DeleteObjects: no keys, more than 1000, or Quiet TRUE is 400 MalformedXML', async (c) => {
    const body = (objects: string, quiet = '') => `<Delete>${quiet}${objects}</Delete>`;
    const many = Array.from({ length: 1001 }, (_, i) => `<Object><Key>${c.key(String(i))}</Key></Object>`).join('');
    for (const xml of [
      body(''),
      body(many),
      body(`<Object><Key>${c.key('x')}</Key></Object>`, '<Quiet>TRUE</Quiet>'),
    ]) {
      const r = await c.send('', {
        method: 'POST',
        query: 'delete',
        body: xml,
        headers: { 'content-md5': await md5(xml) },
      });
      expect([r.status, r.error?.Code]).toEqual([400, 'MalformedXML']);
    }
  });
});
