/**
 * S3's XML. Responses are written by a small serializer for S3's fixed shapes (plain objects of
 * elements, in order); request bodies are validated, then parsed by fast-xml-parser with every value
 * kept as the exact text sent (no number parsing, no trimming: R2 does not trim keys). The parser is
 * imported on the first body that needs it: it was the costliest part of importing the package
 * (docs/benchmarks.md, "A suite's wall time"), and most suites send no XML.
 *
 * The serializer replaced fast-xml-parser's XMLBuilder, which cost most of a 1,000-key list page;
 * spec/s3/xml-serializer.test.ts keeps that builder as the reference and checks the two are
 * byte-identical on random documents.
 */
export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * What R2 escapes in a response's text: `& < > " '`, with `'` as `&apos;`
 * (docs/sources/r2-s3.md#errors; Miniflare's S3 endpoint, whose XML was captured from a real
 * bucket, does the same), and nothing else. Control characters go out as they are, which XML 1.0
 * cannot carry: what R2 sends for them is not established, so this follows the local simulator
 * (Miniflare writes them raw through the same builder). AWS differs: it writes `&#x1;`-style
 * references, equally invalid XML 1.0 (minio/minio-py#716 quotes such a response;
 * aws/aws-sdk-java-v2#2828, aws/aws-sdk-php#169 show clients failing on them). Either way the way
 * out is `encoding-type=url`, which percent-encodes them (listing.ts).
 */
export function escapeXml(text: string): string {
  // A plain loop: most texts (keys, dates, sizes) have nothing to escape, and for those short
  // strings this is several times faster than a regular expression's test.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 62 && entity(c) !== undefined) return escapeFrom(text, i);
  }
  return text;
}

function entity(c: number): string | undefined {
  switch (c) {
    case 38:
      return '&amp;';
    case 60:
      return '&lt;';
    case 62:
      return '&gt;';
    case 34:
      return '&quot;';
    case 39:
      return '&apos;';
  }
  return undefined;
}

/** `text` escaped, its first special character at `first`. */
function escapeFrom(text: string, first: number): string {
  let out = text.slice(0, first);
  let from = first;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const e = c <= 62 ? entity(c) : undefined;
    if (e === undefined) continue;
    out += text.slice(from, i) + e;
    from = i + 1;
  }
  return out + text.slice(from);
}

/** An element's text: strings escaped, numbers as written (`-0` kept), booleans as `true`/`false`. */
function textFor(v: string | number | boolean | bigint): string {
  if (typeof v === 'string') return escapeXml(v);
  return typeof v === 'number' && Object.is(v, -0) ? '-0' : String(v);
}

/** `<name>text</name>`, also when the text is empty (never self-closed, as R2 writes them). */
const element = (name: string, inner: string) => `<${name}>${inner}</${name}>`;

/**
 * Elements already written by a shape's own writer (a list page's thousand `<Contents>`, written
 * directly by listing.ts), placed as they are where their name stands in the content. Each writer
 * is checked byte for byte against the reference builder in spec/s3/xml-serializer.test.ts.
 */
export class XmlElements {
  constructor(readonly xml: string) {}
}

/**
 * The elements of `content` in key order: a primitive is a text element, an object a nested element,
 * an array repeats its element, `XmlElements` are copied; undefined is left out. Anything else (null,
 * dates, nested arrays, attributes) is not part of S3's shapes and is refused rather than guessed at.
 */
function children(content: Readonly<Record<string, unknown>>): string {
  let out = '';
  for (const name in content) {
    const v = content[name];
    if (v === undefined) continue;
    if (v instanceof XmlElements) out += v.xml;
    else if (Array.isArray(v)) {
      for (const item of v) if (item !== undefined) out += node(name, item);
    } else out += node(name, v);
  }
  return out;
}

function node(name: string, v: unknown): string {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
      return element(name, textFor(v));
    case 'object':
      if (v !== null && !Array.isArray(v) && !(v instanceof Date))
        return element(name, children(v as Record<string, unknown>));
  }
  throw new TypeError(`xmlDocument: <${name}> holds a value S3's XML shapes do not have`);
}

/** A document with one root element; `namespaced` roots carry S3's xmlns (success bodies do, errors do not). */
export function xmlDocument(
  root: string,
  content: Readonly<Record<string, unknown>> | string,
  namespaced = true,
): string {
  const open = namespaced ? `<${root} xmlns="${S3_NAMESPACE}">` : `<${root}>`;
  const inner = typeof content === 'string' ? escapeXml(content) : children(content);
  return `${DECLARATION}${open}${inner}</${root}>`;
}

/** The elements that may repeat in the request bodies we read. */
const REPEATED = new Set(['Object', 'Part']);

/** The five entities XML 1.0 predefines (§4.6); no other name is defined without a DTD. */
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class MalformedReference extends Error {}

/** XML 1.0's `Char` production (§2.2): what a character reference may name. */
const isXmlChar = (cp: number) =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  (cp >= 0x10000 && cp <= 0x10ffff);

/**
 * Every reference in a text, as XML 1.0 §4.1 reads it: the five predefined names, `&#N;` and
 * `&#xH;` naming a `Char`. Clients write these: Go's encoding/xml (rclone) escapes `"` as `&#34;`,
 * `'` as `&#39;` and `\t \n \r` as `&#x9; &#xA; &#xD;`; the AWS SDK JS writes `&quot;` and `&#x0D;`.
 * fast-xml-parser's own decoder leaves numeric references undecoded unless HTML entities are on (which
 * would also accept `&nbsp;`), passes undefined names through as text and silently drops `&#1;`: a
 * well-formedness error in XML, which S3 answers with MalformedXML. One pass, so `&amp;lt;` is `&lt;`.
 */
function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^&;]*);?/g, (ref, name: string) => {
    if (!ref.endsWith(';')) throw new MalformedReference(ref);
    const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(name);
    if (numeric) {
      const cp = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2]!, 10);
      if (!isXmlChar(cp)) throw new MalformedReference(ref);
      return String.fromCodePoint(cp);
    }
    if (!Object.hasOwn(PREDEFINED, name)) throw new MalformedReference(ref);
    return PREDEFINED[name]!;
  });
}

/** fast-xml-parser's documented `entityDecoder` hook, with our decoding; DOCTYPE entities are never defined. */
const entityDecoder = {
  decode: decodeReferences,
  setExternalEntities: () => {},
  addInputEntities: () => {},
  reset: () => {},
  setXmlVersion: () => {},
};

type Parse = (text: string) => Record<string, unknown> | undefined;

let loading: Promise<Parse> | undefined;

/** fast-xml-parser's validator and parser, imported once, on first use. */
function xmlParser(): Promise<Parse> {
  return (loading ??= import('fast-xml-parser').then(({ XMLParser, XMLValidator }) => {
    const parser = new XMLParser({
      ignoreAttributes: true,
      parseTagValue: false,
      trimValues: false,
      ignoreDeclaration: true,
      isArray: (name) => REPEATED.has(name),
      entityDecoder,
    });
    return (text) => {
      if (XMLValidator.validate(text) !== true) return undefined;
      try {
        return parser.parse(text) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    };
  }));
}

/** A character XML 1.0 does not allow in a document, even literally (§2.2). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * The parsed body, or undefined when it is not well-formed XML. The parser normalizes line ends
 * before it decodes references (XML 1.0 §2.11: a literal `\r\n` or `\r` reads as `\n`), which is
 * why AWS asks for a carriage return in a key to be sent as `&#13;` (S3 user guide, "XML related
 * object key constraints"): `&#xD;` stays a carriage return.
 */
export async function parseXml(text: string): Promise<Record<string, unknown> | undefined> {
  if (text.trim() === '' || NOT_XML_CHAR.test(text)) return undefined;
  return (await xmlParser())(text);
}

/** The text of an element that holds only text; undefined when absent or not text. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  return undefined;
}
