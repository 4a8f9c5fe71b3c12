/**
 * The S3 view's response serializer (lib/s3/xml.ts) against the builder it replaced: fast-xml-parser's
 * XMLBuilder with the options the S3 view used, kept here as the reference. On random documents of
 * S3's shapes, whose texts mix every XML-special, control, non-BMP and lone-surrogate character, the
 * two must agree byte for byte. The builder's escaping is also the decided rule (xml.ts says why:
 * R2 escapes `& < > " '`, `'` as `&apos;`, and nothing else), so agreeing with it is agreeing with
 * the rule; the rule itself is asserted directly below too.
 */
import { describe, expect, it } from 'vitest';
import { XMLBuilder } from 'fast-xml-parser';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { escapeXml, S3_NAMESPACE, xmlDocument } from '../../lib/s3/xml.js';
import { contentsXml } from '../../lib/s3/listing.js';
import { encodeRfc3986 } from '../../lib/s3/sigv4.js';
import { isoTime } from '../../lib/s3/context.js';
import type { StoredObject } from '../../lib/bucket/stored.js';
import { Rng } from '../dns/fuzz/gen.js';
import { CREDENTIALS, ENDPOINT } from './support.js';
import { AwsClient } from 'aws4fetch';

/** The builder as lib/s3/xml.ts configured it before the serializer, and the document it made. */
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: false });
function referenceDocument(root: string, content: Record<string, unknown> | string, namespaced = true): string {
  let element: unknown = content;
  if (namespaced)
    element =
      typeof content === 'string'
        ? { '@_xmlns': S3_NAMESPACE, '#text': content }
        : { '@_xmlns': S3_NAMESPACE, ...content };
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, [root]: element }) as string;
}

const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i));
const C1 = Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i));
/** Characters that have tripped XML writers: the five specials, every control, non-BMP, lone surrogates, non-characters. */
const TRICKY = [
  ...'&<>"\'',
  ...C0,
  ...C1,
  '\u{1F600}',
  '\u{10FFFF}',
  '\u{10000}',
  '\uD800',
  '\uDFFF',
  '\uFFFE',
  '\uFFFF',
  '\u2028',
  '\u00A0',
  'é',
  'e\u0301',
  ']]>',
  '&amp;',
  '&#x1;',
  '<![CDATA[',
  '%2F',
  '/',
  ' ',
];
const PLAIN = 'abcxyz0189/-_.';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function randomText(rng: Rng, max = 24): string {
  let s = '';
  const n = rng.int(max + 1);
  for (let i = 0; i < n; i++) s += rng.chance(0.4) ? rng.pick(TRICKY) : PLAIN[rng.int(PLAIN.length)]!;
  return s;
}

function randomNumber(rng: Rng): number {
  return rng.pick([0, -0, 1, 1000, 5 * 1024 ** 3, 1.5, -7, Number.MAX_SAFE_INTEGER, rng.int(1e9)]);
}

/** An entry of a list page, the way listing.ts and multipart.ts write them. */
const entry = (rng: Rng) => ({
  Key: randomText(rng, 40),
  LastModified: new Date(rng.int(2 ** 41)).toISOString(),
  ETag: `"${randomText(rng, 8)}"`,
  Size: randomNumber(rng),
  StorageClass: rng.pick(['STANDARD', 'STANDARD_IA']),
});

/** S3's shapes: a ListBucketResult, a ListMultipartUploads-like page, an error, and free trees. */
function randomDocument(rng: Rng): { root: string; content: Record<string, unknown> | string; namespaced: boolean } {
  switch (rng.int(5)) {
    case 0: {
      const content: Record<string, unknown> = {
        Name: randomText(rng),
        Contents: Array.from({ length: rng.int(6) }, () => entry(rng)),
        IsTruncated: rng.chance(0.5),
      };
      if (rng.chance(0.5))
        content.CommonPrefixes = Array.from({ length: rng.int(3) }, () => ({ Prefix: randomText(rng) }));
      content.Prefix = randomText(rng);
      if (rng.chance(0.5)) content.Delimiter = randomText(rng, 3);
      content.MaxKeys = randomNumber(rng);
      if (rng.chance(0.3)) content.StartAfter = randomText(rng);
      if (rng.chance(0.3)) content.NextContinuationToken = randomText(rng);
      content.KeyCount = rng.int(1001);
      return { root: 'ListBucketResult', content, namespaced: true };
    }
    case 1:
      return {
        root: 'ListMultipartUploadsResult',
        content: {
          Bucket: randomText(rng),
          Upload: Array.from({ length: rng.int(4) }, () => ({ Key: randomText(rng), UploadId: randomText(rng) })),
          Prefix: randomText(rng),
        },
        namespaced: true,
      };
    case 2: {
      const content: Record<string, unknown> = { Code: randomText(rng, 10), Message: randomText(rng, 60) };
      if (rng.chance(0.3)) content.StringToSign = randomText(rng, 60);
      return { root: 'Error', content, namespaced: false };
    }
    case 3:
      return { root: 'LocationConstraint', content: randomText(rng, 8), namespaced: rng.chance(0.8) };
    default:
      return {
        root: rng.pick(['DeleteResult', 'CORSConfiguration', 'ListAllMyBucketsResult']),
        content: randomTree(rng, 3),
        namespaced: rng.chance(0.8),
      };
  }
}

const NAMES = ['Key', 'Deleted', 'CORSRule', 'AllowedOrigin', 'Buckets', 'Bucket', 'Owner', 'ID', 'Size', 'A', 'Part'];

/** Any nesting of elements, repeated elements, empty elements, texts, numbers, booleans and absent values. */
function randomTree(rng: Rng, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = rng.int(5);
  for (let i = 0; i < n; i++) out[rng.pick(NAMES) + (rng.chance(0.3) ? String(i) : '')] = randomValue(rng, depth, true);
  return out;
}

function randomValue(rng: Rng, depth: number, arrays: boolean): unknown {
  const kind = rng.int(depth > 0 ? 7 : 4);
  if (kind === 0) return randomText(rng);
  if (kind === 1) return randomNumber(rng);
  if (kind === 2) return rng.chance(0.5);
  if (kind === 3) return rng.chance(0.5) ? undefined : '';
  if (kind === 6 && arrays) return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth - 1, false));
  return randomTree(rng, depth - 1);
}

describe('xmlDocument: the serializer against the builder it replaced', () => {
  it('is byte-identical on 5,000 random documents of S3 shapes with every special, control and non-BMP character', () => {
    for (let seed = 1; seed <= 5000; seed++) {
      const rng = new Rng(seed);
      const { root, content, namespaced } = randomDocument(rng);
      const got = xmlDocument(root, content, namespaced);
      const want = referenceDocument(root, content, namespaced);
      if (got !== want) expect({ seed, got }).toEqual({ seed, got: want });
    }
  });

  it('writes empty texts and empty elements open and closed, never self-closed', () => {
    const doc = { A: '', B: {}, C: [], D: undefined, E: [{}, ''] };
    expect(xmlDocument('R', doc)).toBe(referenceDocument('R', doc));
    expect(xmlDocument('R', doc)).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><R xmlns="${S3_NAMESPACE}"><A></A><B></B><E></E><E></E></R>`,
    );
    expect(xmlDocument('V', '')).toBe(referenceDocument('V', ''));
  });

  it('refuses values outside S3 shapes (null, dates, nested arrays) rather than guessing', () => {
    expect(() => xmlDocument('R', { A: null })).toThrow(TypeError);
    expect(() => xmlDocument('R', { A: new Date(0) })).toThrow(TypeError);
    expect(() => xmlDocument('R', { A: [['x']] })).toThrow(TypeError);
  });
});

describe('the shape writers: the same bytes as the builder on the objects they replace', () => {
  it('contentsXml writes what the builder wrote for { Contents: [{ Key, LastModified, ETag, Size, StorageClass }] }', () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const rng = new Rng(seed);
      const all = Array.from({ length: rng.int(5) }, () => ({
        key: randomText(rng, 40),
        // Often the same millisecond as the one before (isoTime keeps its last answer).
        uploaded: rng.chance(0.3) ? 1_764_000_000_000 : rng.int(2 ** 41),
        // The model's etags: an MD5 in hex, `-N` after it for a multipart object.
        etag:
          rng
            .int(2 ** 31)
            .toString(16)
            .padStart(32, '0') + (rng.chance(0.3) ? `-${1 + rng.int(10000)}` : ''),
        size: rng.int(2 ** 33),
        storageClass: rng.pick(['Standard', 'InfrequentAccess']),
      })) as unknown as StoredObject[];
      for (const enc of [(s: string) => s, encodeRfc3986]) {
        // encodeURIComponent refuses a lone surrogate (a key the S3 path's own decoding never yields).
        const objects = enc === encodeRfc3986 ? all.filter((o) => !LONE_SURROGATE.test(o.key)) : all;
        // The entry as listing.ts built it before it wrote the elements itself.
        const Contents = objects.map((o) => ({
          Key: enc(o.key),
          LastModified: new Date(o.uploaded).toISOString(),
          ETag: `"${o.etag}"`,
          Size: o.size,
          StorageClass: o.storageClass === 'InfrequentAccess' ? 'STANDARD_IA' : 'STANDARD',
        }));
        const got = xmlDocument('ListBucketResult', {
          Name: 'b',
          Contents: contentsXml(objects, enc),
          IsTruncated: false,
        });
        expect(got, `seed ${seed}`).toBe(
          referenceDocument('ListBucketResult', { Name: 'b', Contents, IsTruncated: false }),
        );
      }
    }
  });

  it('isoTime is Date#toISOString, across days, years and the edges it hands to Date', () => {
    const rng = new Rng(7);
    const times = [0, 1, 999, 86_399_999, 86_400_000, -1, -86_400_001, 1.5, 253402300799999, 253402300800000, 8.64e15];
    for (let i = 0; i < 20_000; i++) times.push(rng.int(2 ** 31) * 117_000 + rng.int(117_000));
    for (const ms of times) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  });
});

describe('the escaping rule: what R2 escapes in responses', () => {
  it("escapes & < > \" ' (' as &apos;) in one pass, and nothing else: controls, non-BMP and C1 go out as they are", () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
    expect(escapeXml('&amp;')).toBe('&amp;amp;');
    const raw = C0.join('') + C1.join('') + '\u{1F600}\u{10FFFF}\uFFFE';
    expect(escapeXml(raw)).toBe(raw);
  });

  it('a key with control characters is listed raw without encoding-type, percent-encoded with encoding-type=url', async () => {
    const bucket = new Bucket();
    const api = new S3Api({ buckets: { b: bucket }, credentials: [CREDENTIALS] });
    const key = `k\u0001\r\n\u001f'&\u{1F600}`;
    await bucket.put(key, 'x');
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const list = async (query: string) =>
      (await api.fetch(await signer.sign(`${ENDPOINT}/b?list-type=2${query}`))).text();
    expect(await list('')).toContain(`<Key>k\u0001\r\n\u001f&apos;&amp;\u{1F600}</Key>`);
    expect(await list('&encoding-type=url')).toContain(`<Key>k%01%0D%0A%1F%27%26%F0%9F%98%80</Key>`);
  });
});
