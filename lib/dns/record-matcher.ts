/**
 * `toHaveDnsRecord` and its plain twin `assertDnsRecord`: the check behind them, what an expectation
 * may name, and the reader through which a DNS double (lib/dns-api/zones-api.ts) shows its zones.
 * Beside the DNS model, over the product-neutral test support (lib/support/matchers.ts), which
 * names no product.
 */
import { enforce } from '../support/assertions.js';
import { partialMatch, show } from '../support/call-log.js';
import { pick, type CheckResult } from '../support/matchers.js';
import { describeValue as describe, doubleOf } from '../support/registry.js';
import type { DnsRecord } from './types.js';
import type { Zone } from './zone.js';

/** A field's expected value: a string may be a RegExp to test; objects are matched partly, arrays element by element. */
type FieldExpectation<T> = T extends string
  ? T | RegExp
  : T extends readonly (infer E)[]
    ? readonly FieldExpectation<E>[]
    : T extends object
      ? { [K in keyof T]?: FieldExpectation<T[K]> }
      : T;

/**
 * What `toHaveDnsRecord` and `assertDnsRecord` may require of a record: any of DnsRecord's fields,
 * and only those (a misspelt field is a type error, not a check that never passes). Objects (`meta`,
 * `data`, `settings`) need only the fields named. Vitest's asymmetric matchers fit anywhere.
 */
export type DnsRecordExpectation = { [K in keyof DnsRecord]?: FieldExpectation<DnsRecord[K]> };

/**
 * What `toHaveDnsRecord` reads of a double that serves zones, offered among its `readers`
 * (lib/support/double.ts). A class, so the check finds it by `instanceof` among readers that test
 * support keeps opaque: no cast, and a double without one is told apart at run time.
 */
export class ZoneReader {
  constructor(
    /** The zone an id or a name names. */
    readonly zone: (idOrName: string) => Zone | undefined,
    /** The zone's records as the API shows them (the double presents them, with its own options). */
    readonly records: (zone: Zone) => DnsRecord[],
  ) {}
}

/** A zone (id or name) of the DnsApi has a record with the given fields (as the API shows them). */
export function checkDnsRecord(received: unknown, zone: string, fields: DnsRecordExpectation, extra = 0): CheckResult {
  if (extra > 0) throw new TypeError('toHaveDnsRecord(zone, fields) takes exactly 2 arguments');
  if (fields === null || typeof fields !== 'object')
    throw new TypeError(`toHaveDnsRecord: fields must be an object, got ${describe(fields)}`);
  const d = doubleOf(received)?.readers?.find((r) => r instanceof ZoneReader);
  if (!d) throw new TypeError(`toHaveDnsRecord: expected a DnsApi from edge-doubles, got ${describe(received)}`);
  const z = d.zone(zone);
  if (!z) throw new Error(`toHaveDnsRecord: the DnsApi has no zone ${JSON.stringify(zone)}`);
  const want = { ...fields };
  // A relative name means a name in the zone, as the API reads one.
  if (typeof want.name === 'string' && want.name !== z.name && !want.name.endsWith(`.${z.name}`))
    want.name = want.name === '@' ? z.name : `${want.name}.${z.name}`;
  const records = d.records(z);
  const pass = records.some((r) => partialMatch(r, want));
  const sameName = records.filter((r) => r.name === want.name);
  const nearest =
    sameName.find((r) => r.type === want.type) ?? sameName[0] ?? records.find((r) => r.type === want.type);
  return {
    pass,
    actual: nearest && pick(nearest, want),
    expected: want,
    message: () =>
      pass
        ? `expected zone ${z.name} to have no record matching ${show(want)}, but it has one`
        : `expected zone ${z.name} to have a record matching ${show(want)}; ` +
          (nearest
            ? 'the nearest one differs.'
            : `it has none of that name${want.type ? ' or type' : ''} (${records.length} records).`) +
          (sameName.length > 1
            ? `\nRecords at ${want.name}: ${sameName.map((r) => `${r.type} ${r.content}`).join('; ')}`
            : ''),
  };
}

/** Throws unless the zone (id or name) has a record with the given fields. */
export function assertDnsRecord(api: unknown, zone: string, fields: DnsRecordExpectation): void {
  enforce(checkDnsRecord(api, zone, fields, arguments.length > 3 ? 1 : 0), false, 'assertDnsRecord');
}
