/**
 * Request bodies as real clients encode them: every XML body the S3 view reads (DeleteObjects,
 * CompleteMultipartUpload, PutBucketCors) decodes character references as XML 1.0 requires, and
 * refuses what is not well-formed with MalformedXML. Each encoder below writes text the way the
 * named client library does.
 */
import { describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import { XMLParser } from 'fast-xml-parser';
import { CreateMultipartUploadCommand, DeleteObjectsCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';

const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });

type Encoder = (text: string) => string;
const escaper =
  (map: Record<string, string>): Encoder =>
  (text) =>
    text.replace(new RegExp(`[${Object.keys(map).join('')}]`, 'g'), (c) => map[c]!);

/** How each client library escapes element text. */
const ENCODERS: Record<string, Encoder> = {
  // Go's encoding/xml EscapeText (rclone, restic's minio-go): numeric references for quotes and whitespace.
  'Go encoding/xml': escaper({
    '"': '&#34;',
    "'": '&#39;',
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '\t': '&#x9;',
    '\n': '&#xA;',
    '\r': '&#xD;',
  }),
  // Python's xml.etree.ElementTree (_escape_cdata): only the three markup characters; the rest literal.
  'Python ElementTree': escaper({ '&': '&amp;', '<': '&lt;', '>': '&gt;' }),
  // The AWS SDK for JavaScript v3 (@aws-sdk/xml-builder escapeElement): named quotes, zero-padded hex line ends.
  'AWS SDK JS': escaper({
    '&': '&amp;',
    '"': '&quot;',
    "'": '&apos;',
    '<': '&lt;',
    '>': '&gt;',
    '\r': '&#x0D;',
    '\n': '&#x0A;',
    '\u0085': '&#x85;',
    '\u2028': '&#x2028;',
  }),
  // .NET's SecurityElement.Escape: the five named entities, nothing else.
  '.NET SecurityElement.Escape': escaper({ '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '&': '&amp;' }),
  // Decimal references for everything outside ASCII letters (what a cautious hand-written encoder does).
  'decimal references': (text) => [...text].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `&#${c.codePointAt(0)};`)).join(''),
};

/** Keys with every character an encoder treats specially; `\r` only where the encoder escapes it (XML reads a literal one as `\n`). */
const KEYS = [
  "it's.txt",
  'say "hi"',
  'a&b<c>d',
  'tab\there',
  'line\nbreak',
  'dir/caf\u00e9 \u{1F600}',
  'amp;lt',
  '&amp;',
  'nel\u0085ls\u2028',
];
const CR_KEY = 'carriage\rreturn';
/** ElementTree and SecurityElement.Escape leave `\r` literal, which every XML parser reads as `\n`: they cannot name such a key. */
const writesCrLiterally = (enc: Encoder) => enc('\r') === '\r';

const deleteBody = (keys: string[], enc: Encoder) =>
  `<?xml version="1.0" encoding="UTF-8"?><Delete>${keys.map((k) => `<Object><Key>${enc(k)}</Key></Object>`).join('')}</Delete>`;

/**
 * How a key reads back from a response through any XML parser: the answer writes `\r` literally, as
 * S3 does (boto/boto#23 shows S3 listing `<Key>abc.txt\r</Key>`), and XML reads a literal `\r` as `\n`.
 */
const asRead = (key: string) => key.replace(/\r\n?/g, '\n');

/** The keys a DeleteObjects answer names, read with a real XML parser. */
async function deletedKeys(res: Response): Promise<string[]> {
  const doc = new XMLParser({ parseTagValue: false, trimValues: false, isArray: (n) => n === 'Deleted' }).parse(
    await res.text(),
  ) as {
    DeleteResult: { Deleted?: { Key: string }[] };
  };
  return (doc.DeleteResult.Deleted ?? []).map((d) => String(d.Key));
}

async function post(api: ReturnType<typeof setup>['api'], path: string, body: string, method = 'POST') {
  return api.fetch(await signer.sign(`${ENDPOINT}${path}`, { method, body }));
}

describe('DeleteObjects decodes references as each client writes them', () => {
  for (const [name, enc] of Object.entries(ENCODERS)) {
    it(`${name}: deletes exactly the keys meant and names them decoded`, async () => {
      const { api, photos } = setup();
      const keys = writesCrLiterally(enc) ? KEYS : [...KEYS, CR_KEY];
      for (const k of keys) await photos.put(k, 'x');
      await photos.put('bystander', 'x');
      const res = await post(api, '/photos?delete', deleteBody(keys, enc));
      expect(res.status).toBe(200);
      expect((await deletedKeys(res)).sort()).toEqual(keys.map(asRead).sort());
      expect((await photos.list()).objects.map((o) => o.key)).toEqual(['bystander']);
    });
  }

  it('the AWS SDK itself: keys with quotes, ampersands and line ends are deleted', async () => {
    const { client, photos } = setup();
    const keys = [...KEYS, CR_KEY];
    for (const k of keys) await photos.put(k, 'x');
    const out = await client.send(
      new DeleteObjectsCommand({ Bucket: 'photos', Delete: { Objects: keys.map((Key) => ({ Key })) } }),
    );
    expect(out.Deleted!.map((d) => d.Key).sort()).toEqual(keys.map(asRead).sort());
    expect((await photos.list()).objects).toEqual([]);
  });

  it('random keys through every encoder: each request deletes its key and no other', async () => {
    // A seeded generator over the characters that matter to XML, so a failure reproduces.
    const alphabet = [
      'a',
      'Z',
      '0',
      '/',
      ' ',
      '"',
      "'",
      '&',
      '<',
      '>',
      ';',
      '#',
      'x',
      '\t',
      '\n',
      '\r',
      '\u00e9',
      '\u0085',
      '\u2028',
      '\u{1F600}',
      '\uFFFD',
    ];
    let seed = 20240501;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const { api, photos } = setup();
    for (let round = 0; round < 300; round++) {
      let key = '';
      for (let i = 1 + next(12); i > 0; i--) key += alphabet[next(alphabet.length)];
      const [name, enc] = Object.entries(ENCODERS)[round % Object.keys(ENCODERS).length]!;
      if (writesCrLiterally(enc)) key = key.replace(/\r/g, '');
      if (key === '') key = 'k';
      await photos.put(key, 'x');
      await photos.put('bystander', 'x');
      const res = await post(api, '/photos?delete', deleteBody([key], enc));
      expect([name, JSON.stringify(key), res.status]).toEqual([name, JSON.stringify(key), 200]);
      expect([name, await deletedKeys(res)]).toEqual([name, [asRead(key)]]);
      expect([name, JSON.stringify(key), (await photos.list()).objects.map((o) => o.key)]).toEqual([
        name,
        JSON.stringify(key),
        ['bystander'],
      ]);
    }
  });
});

describe('references that are not XML are MalformedXML, and nothing is deleted', () => {
  const BAD = [
    ['an HTML entity', '&nbsp;'],
    ['an undefined name', '&foo;'],
    ['a DOCTYPE entity', '&e;'],
    ['a reference to NUL', '&#0;'],
    ['a reference to a C0 control', '&#1;'],
    ['a reference to a surrogate', '&#xD800;'],
    ['a reference past U+10FFFF', '&#x110000;'],
    ['an empty reference', '&#;'],
    ['a hex reference with no digits', '&#x;'],
    ['an unterminated reference', '&#65'],
    ['a bare ampersand', 'a & b'],
    ['a literal C0 control', '\u0001'],
  ];
  for (const [what, text] of BAD) {
    it(what, async () => {
      const { api, photos } = setup();
      await photos.put('keep', 'x');
      const doctype = what === 'a DOCTYPE entity' ? '<!DOCTYPE Delete [<!ENTITY e "keep">]>' : '';
      const res = await post(
        api,
        '/photos?delete',
        `${doctype}<Delete><Object><Key>keep</Key></Object><Object><Key>${text}</Key></Object></Delete>`,
      );
      expect(await errorOf(res)).toMatchObject({ status: 400, code: 'MalformedXML' });
      expect(await photos.head('keep')).not.toBeNull();
    });
  }

  it('`&amp;lt;` is the four characters `&lt;`, decoded once', async () => {
    const { api, photos } = setup();
    await photos.put('&lt;', 'x');
    await photos.put('<', 'x');
    const res = await post(api, '/photos?delete', '<Delete><Object><Key>&amp;lt;</Key></Object></Delete>');
    expect(await deletedKeys(res)).toEqual(['&lt;']);
    expect((await photos.list()).objects.map((o) => o.key)).toEqual(['<']);
  });

  it('a literal `\\r\\n` or `\\r` in the body reads as `\\n` (XML 1.0 §2.11 line-end normalization)', async () => {
    const { api, photos } = setup();
    for (const k of ['a\rb', 'a\nb', 'c\r\nd', 'c\nd']) await photos.put(k, 'x');
    const res = await post(
      api,
      '/photos?delete',
      '<Delete><Object><Key>a\rb</Key></Object><Object><Key>c\r\nd</Key></Object></Delete>',
    );
    expect(await deletedKeys(res)).toEqual(['a\nb', 'c\nd']);
    expect((await photos.list()).objects.map((o) => o.key).sort()).toEqual(['a\rb', 'c\r\nd']);
  });

  it('a CDATA section is literal text: its `&` is not a reference', async () => {
    const { api, photos } = setup();
    await photos.put('a&#34;b', 'x');
    const res = await post(api, '/photos?delete', '<Delete><Object><Key><![CDATA[a&#34;b]]></Key></Object></Delete>');
    expect(await deletedKeys(res)).toEqual(['a&#34;b']);
    expect((await photos.list()).objects).toEqual([]);
  });
});

describe('CompleteMultipartUpload with the ETags written as Go writes them', () => {
  const PART = 5 * 1024 * 1024;
  it('`&#34;etag&#34;` names the part (rclone multipart uploads and copies)', async () => {
    const { client, api, photos } = setup();
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'big' }));
    const etags: string[] = [];
    for (const [n, size] of [
      [1, PART],
      [2, 10],
    ] as const) {
      const out = await client.send(
        new UploadPartCommand({
          Bucket: 'photos',
          Key: 'big',
          UploadId,
          PartNumber: n,
          Body: new Uint8Array(size).fill(n),
        }),
      );
      etags.push(out.ETag!);
    }
    const go = ENCODERS['Go encoding/xml']!;
    const body = `<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${etags
      .map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${go(e)}</ETag></Part>`)
      .join('')}</CompleteMultipartUpload>`;
    expect(body).toContain('&#34;');
    const res = await post(api, `/photos/big?uploadId=${encodeURIComponent(UploadId!)}`, body);
    expect(res.status).toBe(200);
    const obj = await photos.head('big');
    expect(obj?.size).toBe(PART + 10);
  });
});

describe('PutBucketCors reads references too', () => {
  it('an origin written with `&#x3A;` and `&#47;` is the origin', async () => {
    const { api } = setup();
    const body =
      '<CORSConfiguration><CORSRule><AllowedOrigin>https&#x3A;&#47;&#47;app.example</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>';
    expect((await post(api, '/photos?cors', body, 'PUT')).status).toBe(200);
    const got = await api.fetch(await signer.sign(`${ENDPOINT}/photos?cors`));
    expect(await got.text()).toContain('<AllowedOrigin>https://app.example</AllowedOrigin>');
  });
});
