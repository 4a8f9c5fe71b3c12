import { describe, expect, it } from 'vitest';
import { schemaErrors } from './support.js';
import { setup } from './helpers.js';
import { RECORD_SAMPLES } from './fixtures/record-samples.js';

// Every type the API supports: data rendered into content (docs/sources/dns-api.md#types), each
// body schema-checked.
const cases = RECORD_SAMPLES;

describe('record types', () => {
  for (const [type, fields, content, priority] of cases) {
    it(`${type}: content ${JSON.stringify(content)}, not proxiable, schema-valid`, async () => {
      const { create } = setup({ compat: 'today' });
      // A DS belongs at a delegation: its name needs an NS first (lib/dns/zone.ts).
      if (type === 'DS') await create({ type: 'NS', name: fields.name, content: 'ns1.example.net' });
      const r = await create({ type, ttl: 1, ...fields });
      expect(r.body.errors).toEqual([]);
      expect(r.body.result).toMatchObject({ type, content, proxiable: false, proxied: false });
      if (priority !== undefined) expect(r.body.result.priority).toBe(priority);
      if (fields.data) expect(r.body.result.data).toEqual(fields.data);
      // OPENPGPKEY is newer than the 2024-08-06 schema, which has no such type.
      if (type !== 'OPENPGPKEY') expect(schemaErrors('dns-records_dns_response_single', r.body)).toEqual([]);
    });
  }

  it('data fields: missing → 9101 "<field> is a required data field.", out of range → 9101, wrong JSON type → 9207', async () => {
    const { create } = setup();
    const miss = await create({
      type: 'SRV',
      name: '_a._tcp',
      data: { priority: 1, weight: 1, target: 'x.example.com' },
    });
    expect(miss.body.errors).toEqual([{ code: 9101, message: 'port is a required data field.' }]);
    const range = await create({
      type: 'SRV',
      name: '_a._tcp',
      data: { priority: 1, weight: 1, port: 70000, target: 'x.example.com' },
    });
    expect(range.body.errors[0]).toMatchObject({ code: 9101 });
    const typed = await create({
      type: 'SRV',
      name: '_a._tcp',
      data: { priority: '1', weight: 1, port: 1, target: 'x.example.com' },
    });
    expect(typed.body.errors[0]).toMatchObject({ code: 9207, message: 'Request body is invalid.' });
    // The retired name fields (2024-05-31) get the text production gave (terraform-provider-cloudflare#3502).
    for (const retiredField of [{ service: '_a' }, { proto: '_tcp' }, { name: 'example.com' }]) {
      const retired = await create({
        type: 'SRV',
        name: '_a._tcp',
        data: { ...retiredField, priority: 1, weight: 1, port: 1, target: 'x.example.com' },
      });
      expect(retired.status).toBe(400);
      expect(retired.body.errors).toEqual([
        { code: 9101, message: "SRV data fields 'service', 'proto' and 'name' are no longer supported" },
      ]);
    }
    const uri = await create({ type: 'URI', name: '_u._tcp', data: { weight: 1, target: 'x' } });
    expect(uri.body.errors[0]).toEqual({ code: 9100, message: 'priority is a required field.' });
  });

  it("MX content is a host name proper (the schema's format: hostname): no _, * or edge hyphens (fuzz)", async () => {
    const { create } = setup();
    for (const content of ['under_score.example.net', '*.example.net', '-x.example.net', 'x-.example.net']) {
      const r = await create({ type: 'MX', name: '@', content, priority: 10 });
      expect(r.body.errors, content).toEqual([{ code: 9007, message: 'Content for MX record is invalid.' }]);
    }
    const ok = await create({ type: 'MX', name: '@', content: 'Mail-1.Example.NET.', priority: 10 });
    expect(ok.body.result.content).toBe('mail-1.example.net');
    expect(schemaErrors('dns-records_dns_response_single', ok.body)).toEqual([]);
  });

  it('data host names echo as sent but compare as DNS names: a second SRV to Sip.Example.NET. is identical (fuzz)', async () => {
    const { create } = setup();
    const srv = (target: string) =>
      create({ type: 'SRV', name: '_sip._tcp', data: { priority: 1, weight: 2, port: 5060, target } });
    expect((await srv('sip.example.net')).status).toBe(200);
    const again = await srv('Sip.Example.NET.');
    expect(again.body.errors).toEqual([{ code: 81058, message: 'An identical record already exists.' }]);
    const svcb = (target: string) =>
      create({ type: 'SVCB', name: 'svc', data: { priority: 1, target, value: 'alpn="h2"' } });
    expect((await svcb('foo.example.net.')).body.result.data.target).toBe('foo.example.net.');
    expect((await svcb('FOO.example.net')).body.errors[0].code).toBe(81058);
  });

  it('an SVCB target keeps its trailing dot in data and content, as sent', async () => {
    const { create } = setup();
    const r = await create({ type: 'SVCB', name: 'svcb', data: { priority: 1, target: 'foo.', value: 'alpn="h2"' } });
    expect(r.body.result).toMatchObject({ content: '1 foo. alpn="h2"', data: { target: 'foo.' } });
  });

  it('names: an emoji label and a name from another domain', async () => {
    const { create } = setup({ compat: 'today' });
    expect((await create({ type: 'A', name: '😀', content: '198.51.100.1' })).body.result.name).toBe(
      'xn--e28h.example.com',
    );
    expect((await create({ type: 'A', name: 'foo.other.org', content: '198.51.100.1' })).body.result.name).toBe(
      'foo.other.org.example.com',
    );
    expect((await create({ type: 'A', name: 'EXAMPLE.COM.', content: '198.51.100.1' })).body.result.name).toBe(
      'example.com',
    );
    for (const bad of ['a b', 'tab\there', 'semi;colon', `${'x'.repeat(250)}.y`]) {
      expect((await create({ type: 'TXT', name: bad, content: '"x"' })).body.errors[0].code, bad).toBe(9000);
    }
  });

  it('MX: null MX "." with priority 0; NS and CNAME with an IP are refused', async () => {
    const { create } = setup();
    expect((await create({ type: 'MX', name: '@', content: '.', priority: 0 })).body.result.content).toBe('.');
    expect((await create({ type: 'NS', name: 'sub', content: '192.0.2.1' })).body.errors[0].code).toBe(9007);
    expect((await create({ type: 'CNAME', name: 'c', content: '192.0.2.1' })).body.errors[0]).toEqual({
      code: 9007,
      message: 'Content for CNAME record is invalid.',
    });
  });

  it('TXT longer than 4,096 wire bytes is 9015; long unquoted content up to it is kept', async () => {
    const { create } = setup({ quoteTxt: false });
    expect((await create({ type: 'TXT', name: 'long', content: 'a'.repeat(4000) })).status).toBe(200);
    expect((await create({ type: 'TXT', name: 'long', content: 'b'.repeat(4100) })).body.errors[0].code).toBe(9015);
  });

  it('AAAA proxiable unless private; private ULA cannot be proxied', async () => {
    const { create } = setup();
    expect(
      (await create({ type: 'AAAA', name: 'v6', content: '2001:db8::10', proxied: true })).body.result.proxied,
    ).toBe(true);
    expect((await create({ type: 'AAAA', name: 'ula', content: 'fd00::1', proxied: true })).body.errors[0].code).toBe(
      9041,
    );
    expect((await create({ type: 'AAAA', name: 'ula', content: 'FD00:0:0::1' })).body.result).toMatchObject({
      content: 'fd00::1',
      proxiable: false,
    });
  });

  it('settings: flatten_cname needs a paid plan and an unproxied CNAME; ipv4_only/ipv6_only only when set', async () => {
    const pro = setup();
    const flat = await pro.create({
      type: 'CNAME',
      name: 'f',
      content: 't.example.net',
      settings: { flatten_cname: true },
    });
    expect(flat.body.result.settings).toEqual({ flatten_cname: true });
    expect(
      (
        await pro.create({
          type: 'CNAME',
          name: 'g',
          content: 't.example.net',
          proxied: true,
          settings: { flatten_cname: true },
        })
      ).status,
    ).toBe(400);
    const free = setup({}, { plan: 'free' });
    expect(
      (await free.create({ type: 'CNAME', name: 'f', content: 't.example.net', settings: { flatten_cname: true } }))
        .status,
    ).toBe(400);
    const v4 = await pro.create({ type: 'A', name: 'v4', content: '198.51.100.1', settings: { ipv4_only: true } });
    expect(v4.body.result.settings).toEqual({ ipv4_only: true });
  });
});

describe('DS records belong at a delegation (octodns-cloudflare#102/#103, 2024-07)', () => {
  const ds = (name: string, key_tag = 2371) => ({
    type: 'DS',
    name,
    data: { key_tag, algorithm: 13, digest_type: 2, digest: 'ab'.repeat(32) },
  });
  const refused = { code: 1004, message: 'DS records can only be created at a name that holds NS records.' };

  it('a DS at a name with no NS record is refused; with one, and at the apex, it is taken', async () => {
    const { create, call } = setup();
    const alone = await create(ds('child'));
    expect(alone.status).toBe(400);
    expect(alone.body.errors).toEqual([refused]);
    // A TXT at the name is not a delegation.
    await create({ type: 'TXT', name: 'child', content: '"x"' });
    expect((await create(ds('child'))).body.errors).toEqual([refused]);
    expect((await create({ type: 'NS', name: 'child', content: 'ns1.example.net' })).status).toBe(200);
    expect((await create(ds('child'))).status).toBe(200);
    // At the apex (DNSControl#3569, 2025: Cloudflare takes a DS at "@").
    expect((await create(ds('@'))).status).toBe(200);
    // An NS below does not make its parent a delegation.
    await create({ type: 'NS', name: 'a.deep', content: 'ns1.example.net' });
    expect((await create(ds('deep'))).body.errors).toEqual([refused]);
    const names = (await call('GET', '?type=DS')).body.result.map((r: { name: string }) => r.name);
    expect(names.sort()).toEqual(['child.example.com', 'example.com']);
  });

  it('moving a DS to a name without NS is refused; the DS stays where it was', async () => {
    const { create, call } = setup();
    await create({ type: 'NS', name: 'child', content: 'ns1.example.net' });
    const made = (await create(ds('child'))).body.result;
    const moved = await call('PATCH', `/${made.id}`, { name: 'other' });
    expect(moved.body.errors).toEqual([refused]);
    expect((await call('GET', `/${made.id}`)).body.result.name).toBe('child.example.com');
    // A record of another type cannot become a DS at a name without NS either.
    const txt = (await create({ type: 'TXT', name: 'plain', content: '"x"' })).body.result;
    const retyped = await call('PUT', `/${txt.id}`, ds('plain'));
    expect(retyped.status).toBe(400);
  });

  it('in one batch, an NS posted before its DS makes the delegation; a DS posted first is refused', async () => {
    const { call } = setup();
    const ns = { type: 'NS', name: 'b', content: 'ns1.example.net' };
    const bad = await call('POST', '/batch', { posts: [ds('b'), ns] });
    expect(bad.body.errors).toEqual([refused]);
    const good = await call('POST', '/batch', { posts: [ns, ds('b')] });
    expect(good.status).toBe(200);
    expect(good.body.result.posts.map((r: { type: string }) => r.type)).toEqual(['NS', 'DS']);
  });

  it('a DS whose NS was deleted can still be re-saved as it is (the deletion is not refused: not observed)', async () => {
    const { create, call } = setup();
    const ns = (await create({ type: 'NS', name: 'child', content: 'ns1.example.net' })).body.result;
    const made = (await create(ds('child'))).body.result;
    expect((await call('DELETE', `/${ns.id}`)).status).toBe(200);
    const again = await call('PUT', `/${made.id}`, { ...ds('child'), ttl: 300 });
    expect(again.status).toBe(200);
    expect((await create(ds('child', 1))).body.errors).toEqual([refused]);
  });

  it('an import takes a DS listed before its NS (an export lists types in order: DS before NS)', async () => {
    const { api, url } = setup();
    const file = [
      'child.example.com.\t300\tIN\tDS\t2371 13 2 ' + 'ab'.repeat(32),
      'child.example.com.\t300\tIN\tNS\tns1.example.net.',
      'lonely.example.com.\t300\tIN\tDS\t2371 13 2 ' + 'ab'.repeat(32),
    ].join('\n');
    const form = new FormData();
    form.set('file', new Blob([file]), 'zone.txt');
    const res = await api.fetch(url('/import'), {
      method: 'POST',
      headers: { authorization: 'Bearer spec-token' },
      body: form,
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.result).toEqual({ recs_added: 2, total_records_parsed: 3 });
    expect(body.messages).toEqual([{ code: 1004, message: `lonely.example.com: ${refused.message}` }]);
  });
});
