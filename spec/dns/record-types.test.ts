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
    const retired = await create({
      type: 'SRV',
      name: '_a._tcp',
      data: { service: '_a', proto: '_tcp', priority: 1, weight: 1, port: 1, target: 'x.example.com' },
    });
    expect(retired.status).toBe(400);
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
