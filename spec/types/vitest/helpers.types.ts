/**
 * Type test (spec/types/vitest/tsconfig.json): what the Vitest helpers accept, and that a misspelt
 * field is reported as such. Each `@ts-expect-error` must meet an error, or the compile fails.
 */
import { expect } from 'vitest';
import { assertDnsRecord, Bucket, DnsApi, type DnsRecord, type DnsRecordSeed, type Fault } from '../../../lib/index.js';
import { testFault } from '../../../lib/vitest.js';

const api = new DnsApi();
const bucket = new Bucket();

// ---- toHaveDnsRecord / assertDnsRecord: DnsRecord's fields, and only those ---------------------

export function recordFields(record: DnsRecord, seed: DnsRecordSeed): void {
  expect(api).toHaveDnsRecord('example.com', {
    type: 'A',
    name: 'www',
    content: '198.51.100.4',
    ttl: 3600,
    proxied: false,
  });
  expect(api).toHaveDnsRecord('example.com', {
    id: '0123456789abcdef0123456789abcdef',
    zone_id: 'z',
    zone_name: 'example.com',
    priority: 10,
    proxiable: true,
    private_routing: true,
    locked: false,
    comment: null,
    tags: ['team:web'],
    created_on: '2026-01-01T00:00:00Z',
    modified_on: '2026-01-01T00:00:00Z',
    comment_modified_on: '2026-01-01T00:00:00Z',
    tags_modified_on: '2026-01-01T00:00:00Z',
  });
  // Objects are matched partly: the fields named.
  expect(api).toHaveDnsRecord('example.com', {
    data: { flags: 0, tag: 'issue' },
    settings: { ipv4_only: true },
    meta: { source: 'primary', shadowed_by: ['x'] },
  });
  expect(api).not.toHaveDnsRecord('example.com', { comment: 'retired' });
  // Vitest's asymmetric matchers, and a RegExp for a string (the match tests it).
  expect(api).toHaveDnsRecord('example.com', { content: expect.stringMatching(/^198\./), ttl: expect.any(Number) });
  expect(api).toHaveDnsRecord('example.com', { name: /^www\./, content: /^198\.51\.100\./, tags: [/^team:/] });
  // A record or a seed as a whole.
  expect(api).toHaveDnsRecord('example.com', record);
  expect(api).toHaveDnsRecord('example.com', seed);
  assertDnsRecord(api, 'example.com', { type: 'TXT', name: 'x', content: '"v"', data: { any: 'thing' } });
  assertDnsRecord(api, 'example.com', seed);
}

export function misspeltRecordFields(): void {
  // @ts-expect-error: `typ` is no field of a record.
  expect(api).toHaveDnsRecord('example.com', { typ: 'A' });
  // @ts-expect-error: `contnet` is no field of a record.
  expect(api).not.toHaveDnsRecord('example.com', { type: 'A', contnet: '198.51.100.4' });
  // @ts-expect-error: nor is `sorce` one of its meta.
  expect(api).toHaveDnsRecord('example.com', { meta: { sorce: 'primary' } });
  // @ts-expect-error: `ttl` is a number.
  expect(api).toHaveDnsRecord('example.com', { ttl: '3600' });
  // @ts-expect-error: the plain function takes the same fields.
  assertDnsRecord(api, 'example.com', { nmae: 'www' });
}

// ---- testFault: the rule's type follows the double ---------------------------------------------

export function faults(): void {
  const onBucket: Fault<unknown> = testFault(bucket, { op: 'get', times: Infinity, error: 'rateLimit' });
  // The error function's argument is typed from the bucket's rule (noImplicitAny would refuse it otherwise).
  const withCall = testFault(bucket, {
    op: ['put', 'uploadPart'],
    error: ({ op, key }) => new Error(`${op} ${key ?? ''}`),
  });
  const onApi = testFault(api, { method: 'POST', path: 'zones/*/dns_records', status: 429, retryAfter: 1 });
  withCall.remove();
  void [onBucket, onApi];
}

// A misspelt field must be the error reported, on its own line: not the double (TypeScript reported
// the last overload's mismatch there, "Type 'Bucket' is missing the following properties from type
// 'DnsApi'"), so each directive below sits on the field's line and the double is on another.
export function misspeltFaultFields(): void {
  testFault(bucket, {
    op: 'get',
    // @ts-expect-error: `errror` is no field of a bucket's rule.
    errror: 'x',
  });
  testFault(api, {
    // @ts-expect-error: `stauts` is no field of a DnsApi's rule.
    stauts: 500,
  });
  testFault(bucket, {
    // @ts-expect-error: `method` is a DnsApi rule's field, not a Bucket's.
    method: 'POST',
  });
  testFault(api, {
    // @ts-expect-error: `op` is a Bucket rule's field, not a DnsApi's.
    op: 'get',
  });
}
