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
const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  isArray: (name) => REPEATED.has(name),
});

/** The parsed body, or undefined when it is not well-formed XML. */
export function parseXml(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '' || XMLValidator.validate(text) !== true) return undefined;
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
