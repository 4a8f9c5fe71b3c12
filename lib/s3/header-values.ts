/**
 * Header values the S3 view builds from request input (a presigned GET's `response-*` overrides):
 * checked before they reach `Headers`, whose constructor would otherwise throw and turn a bad
 * request into a 500.
 *
 * S3 answers a `response-*` value a header cannot carry with 400 InvalidArgument "Header value
 * cannot be represented using ISO-8859-1." naming the argument and its value (guardian/grid#1716,
 * a real S3 answer for `response-content-disposition` holding U+2019). R2's answer is not
 * established; S3's is followed, and used too for NUL, CR and LF, which no header value may hold
 * (Fetch's header value rules) and for which no answer is recorded.
 */
import { S3Error } from './errors.js';

import { carriable } from '../fetch.js';

export { carriable };

export function checkHeaderValue(argumentName: string, value: string): string {
  if (carriable(value)) return value;
  throw new S3Error(400, 'InvalidArgument', 'Header value cannot be represented using ISO-8859-1.', [
    ['ArgumentName', argumentName],
    ['ArgumentValue', value],
  ]);
}
