import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { RECORD_REQUEST_FIELDS } from '../../lib/dns/request.js';
import { dataFields } from '../../lib/dns/record-types.js';
import { RECORD_SAMPLES } from './fixtures/record-samples.js';
import { setup } from './helpers.js';

/**
 * The official SDK's record types, read with the TypeScript compiler: for each member of a union
 * (`RecordCreateParams`, `RecordResponse`), its record type and its fields, with the sub-fields of
 * `settings`, `data` and `meta`. A field a later SDK adds shows up here, and the tests below fail
 * until the double decides what to do with it.
 */
interface SdkField {
  optional: boolean;
  sub: string[];
}
type SdkRecords = Map<string, Map<string, SdkField>>;

function walkSdk(): Record<'create' | 'response', SdkRecords> {
  const file = join(dirname(createRequire(import.meta.url).resolve('cloudflare')), 'resources/dns/records.d.ts');
  const program = ts.createProgram([file], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
  const union = (name: string): SdkRecords => {
    const symbol = exported.find((s) => s.name === name);
    if (!symbol) throw new Error(`the SDK no longer exports ${name}`);
    const out: SdkRecords = new Map();
    for (const member of (checker.getDeclaredTypeOfSymbol(symbol) as ts.UnionType).types) {
      const fields = new Map<string, SdkField>();
      for (const p of member.getProperties()) {
        const t = checker.getNonNullableType(checker.getTypeOfSymbol(p));
        const sub =
          ['settings', 'data', 'meta'].includes(p.name) && !t.isUnion() ? t.getProperties().map((s) => s.name) : [];
        fields.set(p.name, { optional: (p.flags & ts.SymbolFlags.Optional) !== 0, sub });
      }
      const typeField = member.getProperty('type');
      const type = JSON.parse(checker.typeToString(checker.getTypeOfSymbol(typeField!))) as string;
      out.set(type, fields);
    }
    return out;
  };
  return { create: union('RecordCreateParams'), response: union('RecordResponse') };
}

const sdk = walkSdk();

/**
 * Response fields the SDK does not type but the double sends, with their source: the interface
 * document's SRV result carries `priority` (docs/sources/dns-api.md#the-interface-document; the API
 * renders SRV content without it, docs/sources/dns-api.md#types).
 */
const DOCUMENTED_EXTRAS: Record<string, string[]> = { SRV: ['priority'] };

/** Create parameters the SDK sends in the path or the query, not in the body. */
const NOT_BODY = new Set(['zone_id', 'include_shadow_metadata']);

/** A valid, already-normalised value for every request field the SDK types, per record type. */
const CONTENT: Record<string, string> = {
  A: '198.51.100.7',
  AAAA: '2001:db8::7',
  CNAME: 'target.example.net',
  MX: 'mx.example.net',
  TXT: '"kept as sent"',
};
function sample(type: string): Record<string, unknown> {
  const known = RECORD_SAMPLES.find(([t]) => t === type);
  if (known) {
    const { name: _name, ...rest } = known[1];
    return { ...rest, ...(typeof rest.content === 'string' ? { content: known[2] } : {}) };
  }
  if (type === 'SRV') return { data: { priority: 10, weight: 5, port: 5223, target: 'sip.example.com' } };
  if (!(type in CONTENT)) throw new Error(`no sample for type ${type}: add one to spec/dns/fixtures/record-samples.ts`);
  return { content: CONTENT[type], ...(type === 'MX' ? { priority: 10 } : {}) };
}

function fullRequest(
  type: string,
  fields: Map<string, SdkField>,
): { body: Record<string, unknown>; unknown: string[] } {
  const base = sample(type);
  const settings: Record<string, unknown> = {};
  for (const k of fields.get('settings')?.sub ?? []) {
    // Both *_only flags at once are refused (docs/conformance.md, DNS choices); flattening a proxied record too.
    if (k === 'ipv4_only') settings[k] = true;
    else if (k === 'flatten_cname') settings[k] = true;
  }
  const values: Record<string, unknown> = {
    ...base,
    type,
    name: `kept-${type.toLowerCase()}.example.com`,
    ttl: 300,
    proxied: false, // proxying forces ttl 1 and refuses flatten_cname: both covered elsewhere
    comment: 'every field kept',
    tags: ['env:kept'],
    settings,
    private_routing: true,
  };
  const body: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const name of fields.keys()) {
    if (NOT_BODY.has(name)) continue;
    if (name in values) body[name] = values[name];
    else unknown.push(name);
  }
  return { body, unknown };
}

describe("the SDK's record types (cloudflare 7.x records.d.ts), walked field by field", () => {
  it('finds every record type the double knows, and no other', () => {
    const types = [...sdk.create.keys()].sort();
    expect(types).toEqual([...sdk.response.keys()].sort());
    for (const type of types) expect(() => sample(type), type).not.toThrow();
    expect(types.length).toBeGreaterThanOrEqual(21);
  });

  it('every request field the SDK types is one the double reads', () => {
    const read = new Set<string>(RECORD_REQUEST_FIELDS);
    const unread: string[] = [];
    for (const [type, fields] of sdk.create) {
      for (const name of fields.keys()) if (!NOT_BODY.has(name) && !read.has(name)) unread.push(`${type}.${name}`);
    }
    expect(unread, 'fields a newer SDK sends that the double would drop').toEqual([]);
  });

  for (const [type, fields] of sdk.create) {
    it(`${type}: every field sent is stored and echoed; the response has only the SDK's fields`, async () => {
      const { call, create } = setup({}, { plan: 'pro' });
      const { body, unknown } = fullRequest(type, fields);
      expect(unknown, `fields of ${type} with no test value`).toEqual([]);
      // A DS belongs at a delegation: its name needs an NS first (lib/dns/zone.ts).
      if (type === 'DS') await create({ type: 'NS', name: body.name, content: 'ns1.example.net' });
      const r = await create(body);
      expect(r.body.errors, JSON.stringify(body)).toEqual([]);
      const rec = r.body.result;
      for (const [name, value] of Object.entries(body)) {
        if (name === 'settings') expect(rec.settings, type).toMatchObject(value as object);
        else expect(rec[name], `${type}.${name}`).toEqual(value);
      }
      // Stored, not only echoed: a read and an unrelated PATCH keep every field.
      expect((await call('GET', `/${rec.id}`)).body.result).toEqual(rec);
      const patched = (await call('PATCH', `/${rec.id}`, { comment: 'patched' })).body.result;
      expect({
        ...patched,
        comment: body.comment,
        modified_on: rec.modified_on,
        comment_modified_on: rec.comment_modified_on,
      }).toEqual(rec);

      const response = sdk.response.get(type)!;
      const extra = Object.keys(rec).filter((k) => !response.has(k) && !DOCUMENTED_EXTRAS[type]?.includes(k));
      expect(extra, `${type}: response fields the SDK does not type`).toEqual([]);
      const missing = [...response].filter(([k, f]) => !f.optional && !(k in rec)).map(([k]) => k);
      expect(missing, `${type}: required response fields missing`).toEqual([]);
      const dataSub = response.get('data')?.sub;
      if (dataSub?.length) expect(Object.keys(rec.data).sort(), `${type}.data`).toEqual([...dataSub].sort());
      if (dataSub?.length) expect([...dataFields(type)].sort()).toEqual([...dataSub].sort());
      for (const k of Object.keys(rec.settings)) expect(response.get('settings')?.sub, `${type}.settings`).toContain(k);
      for (const k of Object.keys(rec.meta)) expect(response.get('meta')?.sub, `${type}.meta`).toContain(k);
    });
  }

  it('private_routing: A/AAAA only, kept through PATCH, reset by a PUT without it, a non-boolean is 9207', async () => {
    const { call, create } = setup();
    const a = (await create({ type: 'A', name: 'p', content: '198.51.100.1', private_routing: true })).body.result;
    expect(a.private_routing).toBe(true);
    expect((await call('PATCH', `/${a.id}`, { ttl: 120 })).body.result.private_routing).toBe(true);
    const put = (await call('PUT', `/${a.id}`, { type: 'A', name: 'p', content: '198.51.100.1' })).body.result;
    expect(put).not.toHaveProperty('private_routing');
    const txt = (await create({ type: 'TXT', name: 'p', content: '"t"', private_routing: true })).body.result;
    expect(txt).not.toHaveProperty('private_routing');
    const bad = await create({ type: 'A', name: 'q', content: '198.51.100.2', private_routing: 'yes' });
    expect(bad.body.errors).toEqual([{ code: 9207, message: 'Request body is invalid.' }]);
    const off = (await create({ type: 'AAAA', name: 'q', content: '2001:db8::2', private_routing: false })).body.result;
    expect(off).not.toHaveProperty('private_routing');
  });
});
