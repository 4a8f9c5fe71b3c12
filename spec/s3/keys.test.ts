/**
 * Keys are opaque: the raw path after the bucket, percent-decoded once, dots and all. Nothing on
 * the way (URL parsing, a lenient decoder) may turn one key into another, and bytes that are not
 * UTF-8 are refused rather than kept as typed.
 */
import { describe, expect, it } from 'vitest';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { ENDPOINT, errorOf, setup } from './support.js';
import { rawSdk, rawSigned, sendRaw } from './raw.js';
import { seeded } from '../../lib/random.js';

const keysOf = async (photos: ReturnType<typeof setup>['photos']) => (await photos.list()).objects.map((o) => o.key);

describe('dot segments are part of the key', () => {
  it('PUT /photos/tmp/../keep/1.txt stores tmp/../keep/1.txt and leaves keep/1.txt alone; %2e%2e names the same key', async () => {
    const { api, photos } = setup();
    await photos.put('keep/1.txt', 'original');
    expect((await sendRaw(api, { method: 'PUT', path: '/photos/tmp/../keep/1.txt', body: 'dots' })).status).toBe(200);
    expect(await (await photos.get('keep/1.txt'))!.text()).toBe('original');
    expect(await (await photos.get('tmp/../keep/1.txt'))!.text()).toBe('dots');
    expect((await sendRaw(api, { method: 'PUT', path: '/photos/tmp/%2e%2E/keep/1.txt', body: 'encoded' })).status).toBe(
      200,
    );
    expect(await (await photos.get('tmp/../keep/1.txt'))!.text()).toBe('encoded');
    expect(await keysOf(photos)).toEqual(['keep/1.txt', 'tmp/../keep/1.txt']);
    // GET and DELETE name the same key, not the collapsed one.
    expect(await (await sendRaw(api, { path: '/photos/./tmp/../keep/1.txt' })).status).toBe(404);
    expect(await (await sendRaw(api, { path: '/photos/tmp/../keep/1.txt' })).text()).toBe('encoded');
    expect((await sendRaw(api, { method: 'DELETE', path: '/photos/tmp/../keep/1.txt' })).status).toBe(204);
    expect(await keysOf(photos)).toEqual(['keep/1.txt']);
    expect((await sendRaw(api, { method: 'DELETE', path: '/photos/x/../keep/1.txt' })).status).toBe(204);
    expect(await keysOf(photos)).toEqual(['keep/1.txt']);
  });

  it('a dotted copy source and a dotted multipart upload keep their dots', async () => {
    const { api, photos } = setup();
    await photos.put('a/../b', 'source');
    await photos.put('b', 'other');
    const copied = await sendRaw(api, {
      method: 'PUT',
      path: '/photos/c/./d',
      headers: { 'x-amz-copy-source': '/photos/a/../b' },
    });
    expect(copied.status).toBe(200);
    expect(await (await photos.get('c/./d'))!.text()).toBe('source');
    const created = await sendRaw(api, { method: 'POST', path: '/photos/m/../n', query: { uploads: '' } });
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())![1]!;
    expect(
      /<Key>m\/\.\.\/n<\/Key>/.test(await (await sendRaw(api, { path: '/photos/m/../n', query: { uploadId } })).text()),
    ).toBe(true);
    const part = await sendRaw(api, {
      method: 'PUT',
      path: '/photos/m/%2E%2E/n',
      query: { uploadId, partNumber: '1' },
      body: 'part',
    });
    expect(part.status).toBe(200);
    const complete = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part.headers.get('etag')}</ETag></Part></CompleteMultipartUpload>`;
    expect(
      (await sendRaw(api, { method: 'POST', path: '/photos/m/../n', query: { uploadId }, body: complete })).status,
    ).toBe(200);
    expect(await (await photos.get('m/../n'))!.text()).toBe('part');
    expect(await photos.head('n')).toBeNull();
  });

  it('api.fetch with a URL string keeps its dots (the raw target), for a presigned URL too', async () => {
    const { api, photos } = setup();
    await photos.put('keep', 'original');
    const { target } = await rawSigned({ method: 'PUT', path: '/photos/x/../keep', presign: true });
    const res = await api.fetch(`${ENDPOINT}${target}`, { method: 'PUT', body: 'dots' });
    expect(res.status).toBe(200);
    expect(await (await photos.get('keep'))!.text()).toBe('original');
    expect(await (await photos.get('x/../keep'))!.text()).toBe('dots');
  });

  it('an absolute-form target (what a client speaking to a proxy sends) is read from its path on', async () => {
    const { api, photos } = setup();
    const { request, target } = await rawSigned({ method: 'PUT', path: '/photos/p/../q', body: 'abs' });
    expect((await api.handle(request, `http://127.0.0.1:9000${target}`)).status).toBe(200);
    expect(await keysOf(photos)).toEqual(['p/../q']);
  });

  it('the AWS SDK (signing the raw path) puts, copies, lists and deletes dotted keys', async () => {
    const { api, photos } = setup();
    const client = rawSdk(api);
    await photos.put('keep/1.txt', 'original');
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'tmp/../keep/1.txt', Body: 'dots' }));
    await client.send(
      new CopyObjectCommand({ Bucket: 'photos', Key: './copy', CopySource: 'photos/tmp/../keep/1.txt' }),
    );
    expect(
      await (await client.send(new GetObjectCommand({ Bucket: 'photos', Key: './copy' }))).Body!.transformToString(),
    ).toBe('dots');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'photos' }));
    expect(listed.Contents!.map((o) => o.Key)).toEqual(['./copy', 'keep/1.txt', 'tmp/../keep/1.txt']);
    await client.send(new DeleteObjectCommand({ Bucket: 'photos', Key: 'tmp/../keep/1.txt' }));
    expect(await keysOf(photos)).toEqual(['./copy', 'keep/1.txt']);
    expect(await (await photos.get('keep/1.txt'))!.text()).toBe('original');
  });
});

describe('a path that is not UTF-8 is refused, never kept as typed', () => {
  it('PUT /photos/bad%FF: 400 InvalidObjectName, and bad%25FF is its own key', async () => {
    const { api, photos } = setup();
    expect((await sendRaw(api, { method: 'PUT', path: '/photos/bad%25FF', body: 'literal' })).status).toBe(200);
    for (const path of [
      '/photos/bad%FF',
      '/photos/bad%C3',
      '/photos/100%',
      '/photos/a%zz',
      '/photos/%ED%A0%80',
      '/photos/%C0%AF',
    ]) {
      const e = await errorOf(await sendRaw(api, { method: 'PUT', path, body: 'overwrite' }));
      expect([path, e.status, e.code, e.message]).toEqual([
        path,
        400,
        'InvalidObjectName',
        'The specified object name is not valid.',
      ]);
    }
    expect(await keysOf(photos)).toEqual(['bad%FF']);
    expect(await (await photos.get('bad%FF'))!.text()).toBe('literal');
    expect((await errorOf(await sendRaw(api, { method: 'DELETE', path: '/photos/bad%FF' }))).code).toBe(
      'InvalidObjectName',
    );
    expect(await keysOf(photos)).toEqual(['bad%FF']);
  });

  it('the bucket segment and the copy source are decoded the same way', async () => {
    const { api, photos } = setup();
    await photos.put('src', 'v');
    expect(await errorOf(await sendRaw(api, { method: 'PUT', path: '/ph%FFotos/k', body: 'x' }))).toMatchObject({
      status: 400,
      code: 'InvalidBucketName',
    });
    const bad = await errorOf(
      await sendRaw(api, { method: 'PUT', path: '/photos/dst', headers: { 'x-amz-copy-source': '/photos/src%FF' } }),
    );
    expect(bad).toMatchObject({ status: 400, code: 'InvalidObjectName' });
    expect(
      (
        await errorOf(
          await sendRaw(api, {
            method: 'PUT',
            path: '/photos/dst',
            headers: { 'x-amz-copy-source': '/ph%FFotos/src' },
          }),
        )
      ).code,
    ).toBe('InvalidBucketName');
    expect(await keysOf(photos)).toEqual(['src']);
  });

  it('an unauthenticated request for an undecodable key gets the auth error first', async () => {
    const { api } = setup();
    expect(
      await errorOf(
        await api.handle(new Request(`${ENDPOINT}/photos/bad%FF`, { method: 'PUT', body: 'x' }), '/photos/bad%FF'),
      ),
    ).toMatchObject({
      status: 400,
      code: 'InvalidArgument',
      message: 'Authorization',
    });
  });
});

// ---- fuzz: random keys, random spellings ------------------------------------------------------

/** A seeded generator (lib/random.ts), so a failure names the seed that reproduces it. */
const prng = seeded;

/** Pieces keys are made of: dot segments, slashes, percent signs, XML's specials, non-ASCII. */
const PIECES = [
  '.',
  '..',
  '/',
  './',
  '../',
  '%',
  '%2e',
  '%2F',
  '%25',
  '+',
  ' ',
  '<',
  '>',
  '&',
  "'",
  '"',
  '?',
  '#',
  '=',
  ';',
  'a',
  'Z',
  '0',
  '~',
  'é',
  '😀',
  '\\',
  '*',
  '!',
  '(',
  ')',
  '[',
  ']',
  ':',
  '@',
  '$',
  ',',
];

function randomKey(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 8);
  let k = '';
  for (let i = 0; i < n; i++) k += PIECES[Math.floor(rand() * PIECES.length)]!;
  return k;
}

/** A spelling of `key` as a path: each character either as a signer would write it or fully percent-encoded. */
function spell(key: string, rand: () => number): string {
  let out = '';
  for (const ch of key) {
    const always = /[%?#+ <>"\\[\]^`{|}]/.test(ch) || ch.codePointAt(0)! > 0x7e;
    if (always || rand() < 0.3)
      out += Array.from(new TextEncoder().encode(ch), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(
        '',
      );
    else out += ch;
  }
  return out;
}

describe('fuzz: keys with dots, percent signs, XML specials', () => {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 100000);

  it(`every spelling of a key names that key and no other (seed ${seed})`, async () => {
    const rand = prng(seed);
    const { api, photos } = setup();
    const expected = new Map<string, string>();
    for (let i = 0; i < 60; i++) {
      const key = randomKey(rand);
      const body = `v${i}`;
      const path = `/photos/${spell(key, rand)}`;
      const res = await sendRaw(api, { method: 'PUT', path, body });
      expect([path, res.status]).toEqual([path, 200]);
      expected.set(key, body);
      // Read back through another spelling.
      const again = await sendRaw(api, { path: `/photos/${spell(key, rand)}` });
      expect([path, await again.text()]).toEqual([path, body]);
    }
    const listed = await photos.list({ limit: 1000 });
    expect(
      new Map(
        await Promise.all(listed.objects.map(async (o) => [o.key, await (await photos.get(o.key))!.text()] as const)),
      ),
    ).toEqual(expected);
  });

  it(`invalid UTF-8 inside any key is refused and changes nothing (seed ${seed})`, async () => {
    const rand = prng(seed + 1);
    const { api, photos } = setup();
    const BAD = ['%FF', '%C3', '%E2%82', '%F0%9F%98', '%80', '%ED%B0%80', '%', '%G1', '%C0%80'];
    for (let i = 0; i < 40; i++) {
      const key = randomKey(rand);
      const spelled = spell(key, rand);
      const at = Math.floor(rand() * (spelled.length + 1));
      const path = `/photos/${spelled.slice(0, at).replace(/%[0-9A-F]?$/, '')}${BAD[Math.floor(rand() * BAD.length)]}${spelled.slice(at).replace(/^[0-9A-F]{1,2}/, '')}`;
      // Only paths that really do not decode: the splice may have formed a valid sequence.
      let decodes = true;
      try {
        decodeURIComponent(path);
      } catch {
        decodes = false;
      }
      if (decodes) continue;
      const e = await errorOf(await sendRaw(api, { method: 'PUT', path, body: 'x' }));
      expect([path, e.code]).toEqual([path, 'InvalidObjectName']);
    }
    expect(await keysOf(photos)).toEqual([]);
  });

  it(`the AWS SDK round-trips random keys through put, list and get (seed ${seed})`, async () => {
    const rand = prng(seed + 2);
    const { api } = setup();
    const client = rawSdk(api);
    const keys = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const key = randomKey(rand);
      keys.add(key);
      await client.send(new PutObjectCommand({ Bucket: 'photos', Key: key, Body: key }));
      const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: key }));
      expect([key, await got.Body!.transformToString()]).toEqual([key, key]);
    }
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'photos' }));
    expect(new Set(listed.Contents!.map((o) => o.Key))).toEqual(keys);
  });
});
