import { describe, expect, it } from 'vitest';
import { schemaErrors } from './support.js';
import { setup } from './helpers.js';

// Where the interface document and today's API differ, today's API is the default and
// `compat: 'document'` (or each switch alone) gives the document's behaviour.
const DOC = { compat: 'document' } as const;

describe("compat 'document' vs the default ('today')", () => {
  it("the document record carries zone_id, zone_name, locked and the meta booleans beside today's fields", async () => {
    const { create, zoneId } = setup(DOC);
    const { body } = await create({ type: 'A', name: 'www', content: '198.51.100.4', ttl: 3600 });
    expect(body.result).toMatchObject({
      zone_id: zoneId,
      zone_name: 'example.com',
      locked: false,
      meta: { auto_added: false, managed_by_apps: false, managed_by_argo_tunnel: false, source: 'primary' },
      settings: {},
    });
    expect(schemaErrors('dns-records_dns_response_single', body)).toEqual([]);
  });

  it("the default (or compat 'today', or retiredFields: false) drops the retired fields", async () => {
    for (const options of [{}, { compat: 'today' as const }, { ...DOC, retiredFields: false }]) {
      const { create } = setup(options);
      const { body } = await create({ type: 'A', name: 'www', content: '198.51.100.4' });
      expect(Object.keys(body.result)).toEqual([
        'id',
        'name',
        'type',
        'content',
        'proxiable',
        'proxied',
        'ttl',
        'settings',
        'meta',
        'comment',
        'tags',
        'created_on',
        'modified_on',
      ]);
      expect(body.result.meta).toEqual({});
    }
  });

  it('a TXT record saved without quotes gets them (document); today it is stored as sent', async () => {
    const doc = setup(DOC);
    expect(
      (await doc.create({ type: 'TXT', name: '@', content: 'v=spf1 include:_spf.example.net -all' })).body.result
        .content,
    ).toBe('"v=spf1 include:_spf.example.net -all"');
    const today = setup();
    expect((await today.create({ type: 'TXT', name: '@', content: 'v=spf1 -all' })).body.result.content).toBe(
      'v=spf1 -all',
    );
    const switchOnly = setup({ quoteTxt: true });
    expect((await switchOnly.create({ type: 'TXT', name: '@', content: 'plain' })).body.result.content).toBe('"plain"');
  });

  it('TXT with inconsistent quotation marks is a validation error in both modes; state is unchanged', async () => {
    for (const options of [DOC, {}]) {
      const { create, api } = setup(options);
      for (const content of ['"unbalanced', 'half "quoted"', '"a""b"']) {
        const r = await create({ type: 'TXT', name: 'q', content });
        expect(r.status).toBe(400);
        expect(r.body.errors[0].message).toBe('TXT content has inconsistent quotation marks.');
      }
      expect(api.records('example.com')).toEqual([]);
      expect((await create({ type: 'TXT', name: 'q', content: '"one" "two"' })).status).toBe(200);
    }
  });

  it('SPF, DKIM and DMARC are TXT records; type SPF is refused with the RFC 7208 message, DKIM/DMARC as unknown types', async () => {
    const { create } = setup();
    const spf = await create({ type: 'SPF', name: '@', content: 'v=spf1 -all' });
    expect(spf.status).toBe(400);
    expect(spf.body.errors[0].message).toBe(
      'The SPF record type was deprecated in RFC 7208 and is no longer supported. Use a TXT record instead',
    );
    for (const type of ['DKIM', 'DMARC', 'FOO', 'a']) {
      const r = await create({ type, name: '@', content: 'x' });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].message).toBe('Invalid DNS record type');
    }
    // README: txt-forms
    const records = [
      { type: 'TXT', name: '@', content: '"v=spf1 include:_spf.example.net ~all"' },
      {
        type: 'TXT',
        name: 'selector1._domainkey',
        content: '"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC1"',
      },
      { type: 'TXT', name: '_dmarc', content: '"v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com"' },
    ];
    // README: end
    for (const r of records) expect((await create(r)).status).toBe(200);
  });

  it('label rules: the document wants a letter first on A/AAAA/CNAME names; today a digit is fine', async () => {
    const doc = setup(DOC);
    expect((await doc.create({ type: 'A', name: '1host', content: '198.51.100.1' })).body.errors[0].code).toBe(9000);
    expect((await doc.create({ type: 'A', name: 'host-', content: '198.51.100.1' })).body.errors[0].code).toBe(9000);
    expect(
      (await doc.create({ type: 'TXT', name: '1host', content: '"txt names are not A/AAAA/CNAME names"' })).status,
    ).toBe(200);
    expect((await doc.create({ type: 'A', name: '_under_score', content: '198.51.100.1' })).status).toBe(200);
    const today = setup();
    expect((await today.create({ type: 'A', name: '1host', content: '198.51.100.1' })).status).toBe(200);
  });

  it("own network: the document refuses any A/AAAA into the provider's ranges; today only proxied ones", async () => {
    const doc = setup(DOC);
    expect((await doc.create({ type: 'A', name: 'cf', content: '104.16.0.1' })).body.errors[0].code).toBe(9003);
    expect((await doc.create({ type: 'AAAA', name: 'cf', content: '2606:4700::1' })).body.errors[0].code).toBe(9003);
    const today = setup();
    const ok = await today.create({ type: 'A', name: 'cf', content: '104.16.0.1' });
    expect(ok.body.result).toMatchObject({ proxiable: false, proxied: false });
    expect(
      (await today.create({ type: 'A', name: 'cf2', content: '104.16.0.1', proxied: true })).body.errors[0].code,
    ).toBe(9003);
  });

  it('refuseTypeChange refuses a PUT or PATCH that changes the type; by default it is allowed', async () => {
    const strict = setup({ refuseTypeChange: true });
    const rec = (await strict.create({ type: 'A', name: 'x', content: '198.51.100.1' })).body.result;
    expect((await strict.call('PATCH', `/${rec.id}`, { type: 'CNAME', content: 'y.example.net' })).status).toBe(400);
    const lax = setup();
    const r2 = (await lax.create({ type: 'A', name: 'x', content: '198.51.100.1' })).body.result;
    const changed = await lax.call('PATCH', `/${r2.id}`, { type: 'CNAME', content: 'y.example.net' });
    expect(changed.body.result).toMatchObject({
      id: r2.id,
      type: 'CNAME',
      content: 'y.example.net',
      settings: { flatten_cname: false },
    });
  });
});
