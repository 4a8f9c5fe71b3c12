import { describe, expect, it } from 'vitest';
import { setup } from './helpers.js';

// Shadowed records (SDK 7.3 list params; docs/sources/dns-api.md#list,
// docs/sources/dns-api.md#conflicts).
async function delegated() {
  const s = setup({ compat: 'today' });
  const ids: Record<string, string> = {};
  const add = async (key: string, r: Record<string, unknown>) => {
    const res = await s.create(r);
    expect(res.body.errors, key).toEqual([]);
    ids[key] = res.body.result.id;
  };
  await add('ns1', { type: 'NS', name: 'dept', content: 'ns1.dept.example.com' });
  await add('ns2', { type: 'NS', name: 'dept', content: 'ns.elsewhere.net' });
  await add('glue', { type: 'A', name: 'ns1.dept', content: '198.51.100.53' });
  await add('below', { type: 'A', name: 'www.dept', content: '198.51.100.1' });
  await add('txtAt', { type: 'TXT', name: 'dept', content: '"at the cut"' });
  await add('ds', { type: 'DS', name: 'dept', data: { key_tag: 1, algorithm: 13, digest_type: 2, digest: 'ab' } });
  await add('outside', { type: 'A', name: 'www', content: '198.51.100.2' });
  return { s, ids };
}

describe('include_shadow_metadata', () => {
  it('absent: meta carries no shadow fields', async () => {
    const { s, ids } = await delegated();
    expect((await s.call('GET', `/${ids.below}`)).body.result.meta).toEqual({});
  });

  it('marks shadowed records, glue, and counts on the delegating NS records', async () => {
    const { s, ids } = await delegated();
    const r = await s.call('GET', '?include_shadow_metadata=true&per_page=50');
    const meta = Object.fromEntries(r.body.result.map((x: { id: string; meta: object }) => [x.id, x.meta]));
    expect(meta[ids.below!]).toEqual({ shadowed_by: [ids.ns1, ids.ns2] });
    expect(meta[ids.txtAt!]).toEqual({ shadowed_by: [ids.ns1, ids.ns2] });
    expect(meta[ids.glue!]).toEqual({ is_glue: true });
    expect(meta[ids.ds!]).toEqual({});
    expect(meta[ids.outside!]).toEqual({});
    expect(meta[ids.ns1!]).toEqual({ shadowed_records_count: 2 });
  });

  it('shadowed_by_name lists what is at or below a delegation (not its NS); it needs the metadata flag', async () => {
    const { s, ids } = await delegated();
    const r = await s.call('GET', '?include_shadow_metadata=true&shadowed_by_name=dept.example.com');
    expect(r.body.result.map((x: { id: string }) => x.id).sort()).toEqual(
      [ids.below, ids.txtAt, ids.ds, ids.glue].sort(),
    );
    expect((await s.call('GET', '?shadowed_by_name=dept.example.com')).status).toBe(400);
    expect((await s.call('GET', '?include_shadow_metadata=true&shadowed_by_name=example.com')).status).toBe(400);
  });

  it('shadowing_name lists the NS records that shadow a name', async () => {
    const { s, ids } = await delegated();
    const r = await s.call('GET', '?shadowing_name=a.b.www.dept.example.com');
    expect(r.body.result.map((x: { id: string }) => x.id).sort()).toEqual([ids.ns1, ids.ns2].sort());
    expect((await s.call('GET', '?shadowing_name=www.example.com')).body.result).toEqual([]);
  });
});
