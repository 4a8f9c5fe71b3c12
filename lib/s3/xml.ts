/**
 * S3's XML, through fast-xml-parser: documents are built from plain objects (the builder escapes
 * every text, `'` as `&apos;` as R2 does) and request bodies are validated, then parsed with every
 * value kept as the exact text sent (no number parsing, no trimming: R2 does not trim keys).
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: false });
const DECLARATION = { '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' } };

/** A document with one root element; `namespaced` roots carry S3's xmlns (success bodies do, errors do not). */
export function xmlDocument(root: string, content: Record<string, unknown> | string, namespaced = true): string {
  let element: unknown = content;
  if (namespaced) element = typeof content === 'string' ? { '@_xmlns': S3_NAMESPACE, '#text': content } : { '@_xmlns': S3_NAMESPACE, ...content };
  return builder.build({ ...DECLARATION, [root]: element }) as string;
}

/** The elements that may repeat in the request bodies we read. */
const REPEATED = new Set(['Object', 'Part']);

/** The five entities XML 1.0 predefines (§4.6); no other name is defined without a DTD. */
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class MalformedReference extends Error {}

/** XML 1.0's `Char` production (§2.2): what a character reference may name. */
const isXmlChar = (cp: number) =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

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

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  isArray: (name) => REPEATED.has(name),
  entityDecoder,
});

/** A character XML 1.0 does not allow in a document, even literally (§2.2). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * The parsed body, or undefined when it is not well-formed XML. The parser normalizes line ends
 * before it decodes references (XML 1.0 §2.11: a literal `\r\n` or `\r` reads as `\n`), which is
 * why AWS asks for a carriage return in a key to be sent as `&#13;` (S3 user guide, "XML related
 * object key constraints"): `&#xD;` stays a carriage return.
 */
export function parseXml(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '' || NOT_XML_CHAR.test(text) || XMLValidator.validate(text) !== true) return undefined;
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The text of an element that holds only text; undefined when absent or not text. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  return undefined;
}
