import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';

const HEX32 = /^[0-9a-f]{32}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

// The create rules the double was first specified with (docs/sources/dns-api.md#the-interface-document)
// and the name normalisation of docs/sources/dns-api.md#names.
export const create = defineGroup('create', (t) => {
  t.test('an A record is created: envelope success, empty errors and messages, the returned fields', async (c) => {
    const r = await c.create({ type: 'A', name: c.name('www'), content: '198.51.100.4', ttl: 3600, proxied: false });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ success: true, errors: [], messages: [] });
    const rec = r.body.result;
    expect(rec.id).toMatch(HEX32);
    expect(rec).toMatchObject({
      name: c.name('www'),
      type: 'A',
      content: '198.51.100.4',
      proxiable: true,
      proxied: false,
      ttl: 3600,
      comment: null,
      tags: [],
    });
    expect(rec.created_on).toMatch(TIME);
    expect(rec.modified_on).toBe(rec.created_on);
    expect(typeof rec.meta).toBe('object');
    expect(typeof rec.settings).toBe('object');
    expect(rec).not.toHaveProperty('comment_modified_on');
    expect(rec).not.toHaveProperty('tags_modified_on');
  });

  t.test('a proxied CNAME answers with the automatic TTL (1) whatever TTL was asked', async (c) => {
    const rec = await c.made({
      type: 'CNAME',
      name: c.name('alias'),
      content: 'target.example.net',
      ttl: 3600,
      proxied: true,
    });
    expect(rec).toMatchObject({ type: 'CNAME', content: 'target.example.net', proxiable: true, proxied: true, ttl: 1 });
    expect(rec.settings).toEqual({ flatten_cname: false });
  });

  t.test('an SRV record from data: content is "weight port target", priority echoed, not proxiable', async (c) => {
    const rec = await c.made({
      type: 'SRV',
      name: `_sip._tcp.${c.name()}`,
      data: { priority: 10, weight: 5, port: 5223, target: 'server.example.com' },
    });
    expect(rec).toMatchObject({
      type: 'SRV',
      name: `_sip._tcp.${c.name()}`,
      content: '5 5223 server.example.com',
      priority: 10,
      proxiable: false,
      proxied: false,
      ttl: 1,
    });
    expect(rec.data).toMatchObject({ priority: 10, weight: 5, port: 5223, target: 'server.example.com' });
  });

  t.test('TTL omitted means 1 (automatic); proxied omitted means false', async (c) => {
    const rec = await c.made({ type: 'A', name: c.name('auto'), content: '198.51.100.5' });
    expect(rec).toMatchObject({ ttl: 1, proxied: false });
  });

  t.test('a relative name gets the zone appended', async (c) => {
    const relative = c.name('rel').slice(0, -(c.target.zoneName.length + 1));
    const rec = await c.made({ type: 'A', name: relative, content: '198.51.100.6' });
    expect(rec.name).toBe(c.name('rel'));
  });

  t.test('trailing dot and upper case are normalised; the same record again is a duplicate (81058)', async (c) => {
    const rec = await c.made({ type: 'A', name: `${c.name('Case').toUpperCase()}.`, content: '198.51.100.7' });
    expect(rec.name).toBe(c.name('case'));
    const again = await c.create({ type: 'A', name: c.name('case'), content: '198.51.100.7', ttl: 300 });
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatchObject({ code: 81058, message: 'An identical record already exists.' });
  });

  t.test('a Unicode label is stored in punycode', async (c) => {
    const rec = await c.made({ type: 'TXT', name: `bücher.${c.name()}`, content: '"idn"' });
    expect(rec.name).toBe(`xn--bcher-kva.${c.name()}`);
  });

  t.test('a wildcard as the whole leftmost label is accepted, and may be proxied', async (c) => {
    const rec = await c.made({ type: 'A', name: `*.${c.name()}`, content: '198.51.100.8', proxied: true });
    expect(rec).toMatchObject({ name: `*.${c.name()}`, proxied: true });
  });

  t.test(
    'the returned record has none of the retired fields (zone_id, zone_name, locked) and an empty meta',
    async (c) => {
      const rec = await c.made({ type: 'A', name: c.name('shape'), content: '198.51.100.9' });
      expect(rec).not.toHaveProperty('zone_id');
      expect(rec).not.toHaveProperty('zone_name');
      expect(rec).not.toHaveProperty('locked');
      expect(rec.meta).toEqual({});
    },
    { difference: 'document-retired-fields' },
  );

  t.test(
    'a TXT record saved without quotes is stored as sent',
    async (c) => {
      const rec = await c.made({ type: 'TXT', name: c.name('txt'), content: 'v=spf1 -all' });
      expect(rec.content).toBe('v=spf1 -all');
    },
    { difference: 'document-txt-quotes' },
  );

  t.test('a quoted TXT record is stored as sent', async (c) => {
    const rec = await c.made({ type: 'TXT', name: c.name('txtq'), content: '"part one" "part two"' });
    expect(rec.content).toBe('"part one" "part two"');
  });
});
