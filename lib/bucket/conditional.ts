/**
 * `onlyIf`: parsing (object form and Headers form, with workerd's errors) and evaluation (R2's
 * rules: RFC 7232 without If-Range, with R2's precedence between etag and date conditions).
 */
import { fieldTypeError } from './errors.js';
import { isHeaders, isObjectLike, optionalDateField, optionalStringField, sentDate } from './coerce.js';
import { parseHeaderDate } from './metadata.js';

export type Etag = { readonly kind: 'wildcard' } | { readonly kind: 'strong' | 'weak'; readonly value: string };

export interface Conditional {
  readonly etagMatches?: readonly Etag[];
  readonly etagDoesNotMatch?: readonly Etag[];
  /** Epoch ms as sent on the wire (NaN for dates before 1970, which never compare true). */
  readonly uploadedBefore?: number;
  readonly uploadedAfter?: number;
  readonly secondsGranularity: boolean;
}

const WILDCARD: Etag = { kind: 'wildcard' };

/**
 * The binding sends dates as unsigned 64-bit ms: a pre-1970 date wraps to a value beyond any Date,
 * so every comparison with it fails. NaN models exactly that. -1 ms is not sent at all (`sentDate`).
 */
const wireDate = (ms: number | undefined) => {
  const sent = sentDate(ms);
  return sent === undefined ? undefined : sent < 0 ? NaN : sent;
};

/**
 * An If-Match / If-None-Match list, read as workerd reads it: elements separated by commas (empty
 * ones skipped, spaces and tabs allowed), each `"v"`, `W/"v"` or `*` (which stands for the whole
 * list). Anything else where an element should start ends the list quietly; after an etag, the
 * start of another one without a comma is an error. A list that yields nothing is an error.
 */
export function parseEtagHeader(header: string, name: 'if-match' | 'if-none-match'): Etag[] {
  const out: Etag[] = [];
  let i = 0;
  const skipSpace = () => {
    while (header[i] === ' ' || header[i] === '\t') i++;
  };
  const quoted = (from: number) => {
    const close = header.indexOf('"', from);
    if (close < 0) throw new Error('Unclosed double quote for Etag');
    i = close + 1;
    return header.slice(from, close);
  };
  scan: for (;;) {
    while (header[i] === ' ' || header[i] === '\t' || header[i] === ',') i++;
    const c = header[i];
    if (c === '*') return [WILDCARD];
    if (c === '"') out.push({ kind: 'strong', value: quoted(i + 1) });
    else if (c === 'W') {
      if (header[i + 1] !== '/' || header[i + 2] !== '"')
        throw new Error('Weak etags must start with W/ and their value must be quoted');
      out.push({ kind: 'weak', value: quoted(i + 3) });
    } else break; // the end, or text that is not an etag
    skipSpace();
    switch (header[i]) {
      case ',':
        continue scan;
      case '"':
        throw commaExpected(
          `a double quote character '"' instead. This would otherwise indicate the start of a new strong etag.`,
        );
      case '*':
        throw commaExpected("a wildcard character '*' instead.");
      case 'W':
        throw commaExpected(
          "a weak quotation character 'W' instead. This would otherwise indicate the start of a new weak etag.",
        );
      default:
        break scan;
    }
  }
  if (out.length === 0) throw new Error(`Invalid ETag in ${name} header`);
  return out;
}

const commaExpected = (what: string) => new Error(`Comma was expected to separate etags. Encountered ${what}`);

/** `onlyIf` after workerd's type conversion (types checked, nothing interpreted yet). */
export type ConvertedConditional =
  | { readonly kind: 'headers'; readonly headers: Headers }
  | {
      readonly kind: 'object';
      readonly etagMatches?: string;
      readonly etagDoesNotMatch?: string;
      readonly uploadedBefore?: number;
      readonly uploadedAfter?: number;
      readonly secondsGranularity: boolean;
    };

/** Conversion: an R2Conditional struct or Headers; null/undefined mean none. */
export function convertConditional(v: unknown, struct: string): ConvertedConditional | undefined {
  if (v === undefined || v === null) return undefined;
  if (isHeaders(v)) return { kind: 'headers', headers: v };
  if (!isObjectLike(v)) throw fieldTypeError('onlyIf', struct, 'Conditional or Headers');
  return {
    kind: 'object',
    etagMatches: optionalStringField(v, 'etagMatches', 'Conditional'),
    etagDoesNotMatch: optionalStringField(v, 'etagDoesNotMatch', 'Conditional'),
    uploadedBefore: optionalDateField(v, 'uploadedBefore', 'Conditional'),
    uploadedAfter: optionalDateField(v, 'uploadedAfter', 'Conditional'),
    secondsGranularity: Boolean(v.secondsGranularity),
  };
}

/** The object form's single etag: `*`, or one strong etag taken literally (never quoted). */
function singleEtag(v: string | undefined): Etag[] | undefined {
  if (v === undefined) return undefined;
  if (v.startsWith('"') && v.endsWith('"'))
    throw new TypeError(`Conditional ETag should not be wrapped in quotes (${v}).`);
  return [v === '*' ? WILDCARD : { kind: 'strong', value: v }];
}

/** Interpretation, as the binding builds its request: quoted etags refused, headers parsed. */
export function unwrapConditional(c: ConvertedConditional): Conditional {
  if (c.kind === 'headers') {
    const h = c.headers;
    const ifMatch = h.get('if-match');
    const ifNoneMatch = h.get('if-none-match');
    const modifiedSince = h.get('if-modified-since');
    const unmodifiedSince = h.get('if-unmodified-since');
    return {
      etagMatches: ifMatch === null ? undefined : parseEtagHeader(ifMatch, 'if-match'),
      etagDoesNotMatch: ifNoneMatch === null ? undefined : parseEtagHeader(ifNoneMatch, 'if-none-match'),
      uploadedAfter: modifiedSince === null ? undefined : wireDate(parseHeaderDate(modifiedSince)),
      uploadedBefore: unmodifiedSince === null ? undefined : wireDate(parseHeaderDate(unmodifiedSince)),
      secondsGranularity: true, // HTTP dates have no milliseconds
    };
  }
  return {
    etagMatches: singleEtag(c.etagMatches),
    etagDoesNotMatch: singleEtag(c.etagDoesNotMatch),
    uploadedBefore: wireDate(c.uploadedBefore),
    uploadedAfter: wireDate(c.uploadedAfter),
    secondsGranularity: c.secondsGranularity,
  };
}

const toSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

/** Whether the condition lets the operation proceed on an existing object. */
export function conditionHolds(c: Conditional, object: { readonly etag: string; readonly uploaded: number }): boolean {
  // `object.etag` is read only when an etag is compared: it may cost an md5 (see stored.ts).
  const ifMatch =
    c.etagMatches === undefined ||
    c.etagMatches.some((e) => e.kind === 'wildcard' || (e.kind === 'strong' && e.value === object.etag));
  const ifNoneMatch =
    c.etagDoesNotMatch === undefined ||
    !c.etagDoesNotMatch.some((e) => e.kind === 'wildcard' || e.value === object.etag);
  const g = c.secondsGranularity ? toSeconds : (ms: number) => ms;
  const t = g(object.uploaded);
  const modifiedSince =
    c.uploadedAfter === undefined || g(c.uploadedAfter) < t || (c.etagDoesNotMatch !== undefined && ifNoneMatch);
  const unmodifiedSince =
    c.uploadedBefore === undefined || t < g(c.uploadedBefore) || (c.etagMatches !== undefined && ifMatch);
  return ifMatch && ifNoneMatch && modifiedSince && unmodifiedSince;
}

/** Whether a put may proceed when the key does not exist: only "absent-friendly" conditions pass. */
export const conditionHoldsWhenAbsent = (c: Conditional): boolean =>
  c.etagMatches === undefined && c.uploadedAfter === undefined;
