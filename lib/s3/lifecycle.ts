/**
 * Bucket lifecycle in the S3 view: PutBucketLifecycleConfiguration, GetBucketLifecycleConfiguration
 * and DeleteBucketLifecycle over the bucket's one rule set (lib/bucket/lifecycle.ts), the set the
 * REST API's `/lifecycle` reads and writes. R2's S3 endpoint implements these (docs r2/api/s3/api,
 * r2/buckets/object-lifecycles; docs/sources/r2-s3.md#lifecycle): Expiration by Days or Date,
 * Transition to STANDARD_IA (R2's InfrequentAccess), AbortIncompleteMultipartUpload, prefix
 * filters, at most 1000 rules, and the default 7-day multipart rule.
 *
 * The mapping (one rule each way): Days × 86400 is the API's `maxAge` in seconds; `Filter/Prefix`, or
 * the older top-level `Prefix` (s3cmd sends it), is `conditions.prefix`; Status Enabled/Disabled is
 * `enabled`. Not established, and decided here: an absent ID gets `Rule <n>` (the API requires one);
 * an age that is not whole days reads back rounded up to days; elements R2 does not list (tags, object
 * sizes, noncurrent versions) and anything malformed are MalformedXML; a class other than STANDARD_IA
 * is InvalidStorageClass; an empty set reads as AWS's 404 NoSuchLifecycleConfiguration.
 */
import {
  lifecycleRules,
  LifecycleRuleError,
  type LifecycleCondition,
  type LifecycleRule,
} from '../bucket/lifecycle.js';
import { xmlResponse } from './context.js';
import { S3Error, s3Errors } from './errors.js';
import { parseXml } from './xml.js';

const DAY_S = 86_400;
const RULE_FIELDS = new Set([
  'ID',
  'Status',
  'Filter',
  'Prefix',
  'Expiration',
  'Transition',
  'AbortIncompleteMultipartUpload',
  '#text',
]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const many = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const malformed = () => s3Errors.malformedXml();

function days(v: unknown): number {
  const t = typeof v === 'string' ? v.trim() : undefined;
  if (t === undefined || !/^\d+$/.test(t) || Number(t) < 1) throw malformed();
  return Number(t) * DAY_S;
}

/** Days or Date (exactly one), as an API condition. */
function condition(v: Record<string, unknown>, allowed: readonly string[]): LifecycleCondition {
  for (const k of Object.keys(v)) if (!allowed.includes(k) && k !== '#text') throw malformed();
  if (v.Days !== undefined && v.Date === undefined) return { type: 'Age', maxAge: days(v.Days) };
  if (
    v.Date !== undefined &&
    v.Days === undefined &&
    typeof v.Date === 'string' &&
    !Number.isNaN(Date.parse(v.Date.trim()))
  ) {
    return { type: 'Date', date: new Date(Date.parse(v.Date.trim())).toISOString() };
  }
  throw malformed();
}

function prefixOf(rule: Record<string, unknown>): string {
  const filter = rule.Filter;
  if (filter !== undefined && rule.Prefix !== undefined) throw malformed();
  if (filter === undefined)
    return typeof rule.Prefix === 'string' ? rule.Prefix : rule.Prefix === undefined ? '' : (malformed() as never);
  if (filter === '') return '';
  if (!isRecord(filter)) throw malformed();
  for (const k of Object.keys(filter)) if (k !== 'Prefix' && k !== '#text') throw malformed();
  return typeof filter.Prefix === 'string' ? filter.Prefix : filter.Prefix === undefined ? '' : (malformed() as never);
}

/** A LifecycleConfiguration document as the bucket's rules (validated as the REST API validates them). */
export async function parseLifecycleConfiguration(text: string): Promise<readonly LifecycleRule[]> {
  const root = (await parseXml(text))?.LifecycleConfiguration;
  if (!isRecord(root)) throw malformed();
  const rules = many(root.Rule);
  if (rules.length === 0) throw malformed();
  const api = rules.map((r, i) => {
    if (!isRecord(r)) throw malformed();
    for (const k of Object.keys(r)) if (!RULE_FIELDS.has(k)) throw malformed();
    if (r.Status !== 'Enabled' && r.Status !== 'Disabled') throw malformed();
    const id = typeof r.ID === 'string' && r.ID !== '' ? r.ID : `Rule ${i + 1}`;
    const out: Record<string, unknown> = { id, enabled: r.Status === 'Enabled', conditions: { prefix: prefixOf(r) } };
    if (r.Expiration !== undefined) {
      if (!isRecord(r.Expiration)) throw malformed();
      out.deleteObjectsTransition = { condition: condition(r.Expiration, ['Days', 'Date']) };
    }
    const transitions = many(r.Transition).map((t) => {
      if (!isRecord(t)) throw malformed();
      if (t.StorageClass !== 'STANDARD_IA') throw s3Errors.invalidStorageClass();
      return { condition: condition(t, ['Days', 'Date', 'StorageClass']), storageClass: 'InfrequentAccess' };
    });
    if (transitions.length) out.storageClassTransitions = transitions;
    if (r.AbortIncompleteMultipartUpload !== undefined) {
      const a = r.AbortIncompleteMultipartUpload;
      if (!isRecord(a) || Object.keys(a).some((k) => k !== 'DaysAfterInitiation' && k !== '#text')) throw malformed();
      out.abortMultipartUploadsTransition = { condition: { type: 'Age', maxAge: days(a.DaysAfterInitiation) } };
    }
    return out;
  });
  try {
    return lifecycleRules(api);
  } catch (e) {
    if (e instanceof LifecycleRuleError) throw malformed();
    throw e;
  }
}

const asDays = (seconds: number) => Math.ceil(seconds / DAY_S);
const when = (c: LifecycleCondition) => (c.type === 'Age' ? { Days: asDays(c.maxAge) } : { Date: c.date });

/** The bucket's rules as a LifecycleConfiguration document. */
export function lifecycleConfigurationResponse(rules: readonly LifecycleRule[]): Response {
  if (rules.length === 0)
    throw new S3Error(404, 'NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist');
  return xmlResponse('LifecycleConfiguration', {
    Rule: rules.map((r) => ({
      ID: r.id,
      Status: r.enabled ? 'Enabled' : 'Disabled',
      Filter: { Prefix: r.conditions.prefix ?? '' },
      ...(r.deleteObjectsTransition ? { Expiration: when(r.deleteObjectsTransition.condition) } : {}),
      ...(r.storageClassTransitions?.length
        ? { Transition: r.storageClassTransitions.map((t) => ({ ...when(t.condition), StorageClass: 'STANDARD_IA' })) }
        : {}),
      ...(r.abortMultipartUploadsTransition
        ? {
            AbortIncompleteMultipartUpload: {
              DaysAfterInitiation: asDays(r.abortMultipartUploadsTransition.condition.maxAge),
            },
          }
        : {}),
    })),
  });
}
