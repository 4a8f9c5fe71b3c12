import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

// Per-type content rules, names, TTL and proxying (docs/sources/dns-api.md: types, names, ttl,
// proxying).
export const validation = defineGroup('validation', (t) => {
  t.test('an empty name is 9000 "DNS name is invalid."', async (c) => {
    expectError(await c.create({ type: 'A', name: '', content: '198.51.100.1' }), 400, 9000, 'DNS name is invalid.');
  });

  t.test('a 64-character label and a wildcard that is not the leftmost label are 9000', async (c) => {
    expectError(
      await c.create({ type: 'A', name: `${'a'.repeat(64)}.${c.name()}`, content: '198.51.100.1' }),
      400,
      9000,
    );
    expectError(await c.create({ type: 'A', name: `a.*.${c.name()}`, content: '198.51.100.1' }), 400, 9000);
    expectError(await c.create({ type: 'A', name: `*x.${c.name()}`, content: '198.51.100.1' }), 400, 9000);
  });

  t.test('an empty label (a..b) is 9000', async (c) => {
    expectError(await c.create({ type: 'A', name: `a..${c.name()}`, content: '198.51.100.1' }), 400, 9000);
  });

  t.test(
    'a label starting with a digit is accepted on an A record',
    async (c) => {
      const rec = await c.made({ type: 'A', name: c.name('1host'), content: '198.51.100.1' });
      expect(rec.name).toBe(c.name('1host'));
    },
    { difference: 'document-label-rules' },
  );

  for (const bad of ['127.1', '256.0.0.1', '::1', '', '01.2.3.4']) {
    t.test(`A content ${JSON.stringify(bad)} is 9005`, async (c) => {
      expectError(
        await c.create({ type: 'A', name: c.name('a'), content: bad }),
        400,
        9005,
        'Content for A record must be a valid IPv4 address.',
      );
    });
  }

  t.test('AAAA content is stored in canonical form; an IPv4 address is 9006', async (c) => {
    const rec = await c.made({ type: 'AAAA', name: c.name('v6'), content: '2001:DB8:0:0:0:0:0:1' });
    expect(rec.content).toBe('2001:db8::1');
    expectError(
      await c.create({ type: 'AAAA', name: c.name('v6b'), content: '1.2.3.4' }),
      400,
      9006,
      'Content for AAAA record must be a valid IPv6 address.',
    );
  });

  t.test('CNAME content is lowercased without its trailing dot; pointing at itself is 9039', async (c) => {
    const rec = await c.made({ type: 'CNAME', name: c.name('cn'), content: 'Target.Example.NET.' });
    expect(rec.content).toBe('target.example.net');
    expectError(
      await c.create({ type: 'CNAME', name: c.name('self'), content: c.name('self') }),
      400,
      9039,
      'CNAME content cannot reference itself.',
    );
  });

  t.test('MX: priority is required (9100), 0 is fine, an IP address is 9009', async (c) => {
    expectError(
      await c.create({ type: 'MX', name: c.name('mx'), content: 'mail.example.com' }),
      400,
      9100,
      'priority is a required field.',
    );
    const rec = await c.made({ type: 'MX', name: c.name('mx'), content: 'Mail.Example.com.', priority: 0 });
    expect(rec).toMatchObject({ content: 'mail.example.com', priority: 0, proxiable: false, proxied: false });
    expectError(await c.create({ type: 'MX', name: c.name('mx2'), content: '1.2.3.4', priority: 10 }), 400, 9009);
  });

  t.test('TTL 1, 60 and 86400 are accepted; 0, 59, 86401 and 120.5 are 9021', async (c) => {
    let i = 0;
    for (const ttl of [1, 60, 86400]) {
      const rec = await c.made({ type: 'TXT', name: c.name(`ttl${i++}`), content: '"t"', ttl });
      expect(rec.ttl).toBe(ttl);
    }
    for (const ttl of [0, 59, 86401, 120.5]) {
      expectError(
        await c.create({ type: 'TXT', name: c.name('ttlbad'), content: '"t"', ttl }),
        400,
        9021,
        'TTL must be between 60 and 86400 seconds, or 1 for Automatic.',
      );
    }
  });

  t.test('proxied on TXT, MX and SRV is 9004', async (c) => {
    const msg = 'This record type cannot be proxied.';
    expectError(await c.create({ type: 'TXT', name: c.name('p'), content: '"x"', proxied: true }), 400, 9004, msg);
    expectError(
      await c.create({ type: 'MX', name: c.name('p'), content: 'mx.example.com', priority: 1, proxied: true }),
      400,
      9004,
      msg,
    );
    expectError(
      await c.create({
        type: 'SRV',
        name: `_a._tcp.${c.name()}`,
        data: { priority: 1, weight: 1, port: 1, target: 'x.example.com' },
        proxied: true,
      }),
      400,
      9004,
      msg,
    );
  });

  t.test('a private address cannot be proxied (9041) and is reported as not proxiable', async (c) => {
    expectError(await c.create({ type: 'A', name: c.name('lan'), content: '192.168.1.1', proxied: true }), 400, 9041);
    const rec = await c.made({ type: 'A', name: c.name('lan'), content: '192.168.1.1' });
    expect(rec).toMatchObject({ proxiable: false, proxied: false });
  });

  t.test("a proxied A record into the provider's own ranges is refused with 9003", async (c) => {
    expectError(
      await c.create({ type: 'A', name: c.name('own'), content: '104.16.0.1', proxied: true }),
      400,
      9003,
      'Target 104.16.0.1 is not allowed for a proxied record.',
    );
  });

  t.test(
    "an unproxied A record into the provider's own ranges is accepted",
    async (c) => {
      const rec = await c.made({ type: 'A', name: c.name('own'), content: '104.16.0.1' });
      expect(rec.content).toBe('104.16.0.1');
    },
    { difference: 'document-own-network' },
  );

  t.test('a non-boolean proxied is 9003', async (c) => {
    expectError(await c.create({ type: 'A', name: c.name('pb'), content: '198.51.100.1', proxied: 'yes' }), 400, 9003);
  });

  t.test('type SPF is refused with the RFC 7208 message; the SPF text goes in a TXT record', async (c) => {
    expectError(
      await c.create({ type: 'SPF', name: c.name(), content: 'v=spf1 -all' }),
      400,
      undefined,
      'The SPF record type was deprecated in RFC 7208 and is no longer supported. Use a TXT record instead',
    );
    const rec = await c.made({ type: 'TXT', name: c.name(), content: '"v=spf1 include:_spf.example.com -all"' });
    expect(rec.type).toBe('TXT');
  });

  t.test('a data type sent with content only names its first missing data field (9101)', async (c) => {
    expectError(
      await c.create({ type: 'SSHFP', name: c.name('ssh'), content: '4 1 8f59a0ff' }),
      400,
      9101,
      'algorithm is a required data field.',
    );
  });

  t.test('CAA from data renders as flags tag "value"', async (c) => {
    const rec = await c.made({
      type: 'CAA',
      name: c.name(),
      data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    });
    expect(rec.content).toBe('0 issue "letsencrypt.org"');
    expect(rec.data).toMatchObject({ flags: 0, tag: 'issue', value: 'letsencrypt.org' });
  });

  t.test('tags follow the plan: refused with 9300 on a zone without tag quota, kept otherwise', async (c) => {
    const r = await c.create({ type: 'TXT', name: c.name('tag'), content: '"t"', tags: ['env:test'] });
    if (c.target.tagsAllowed) {
      expect(r.status).toBe(200);
      expect(r.body.result.tags).toEqual(['env:test']);
      expect(typeof r.body.result.tags_modified_on).toBe('string');
    } else {
      expectError(r, 400, 9300, 'DNS record has 1 tags, exceeding the quota of 0.');
    }
  });

  t.test('a comment is kept and timestamped; no comment is null', async (c) => {
    const rec = await c.made({ type: 'TXT', name: c.name('cm'), content: '"t"', comment: 'made by conformance' });
    expect(rec.comment).toBe('made by conformance');
    expect(typeof rec.comment_modified_on).toBe('string');
  });
});

// Rules between records of one name (docs/sources/dns-api.md#conflicts).
export const conflicts = defineGroup('conflicts', (t) => {
  t.test('a CNAME where an A exists is 81053; an A where a CNAME exists is 81054', async (c) => {
    await c.made({ type: 'A', name: c.name('x'), content: '198.51.100.1' });
    expectError(
      await c.create({ type: 'CNAME', name: c.name('x'), content: 'example.net' }),
      400,
      81053,
      'An A, AAAA, or CNAME record with that host already exists.',
    );
    await c.made({ type: 'CNAME', name: c.name('y'), content: 'example.net' });
    const r = await c.create({ type: 'A', name: c.name('y'), content: '198.51.100.1' });
    expectError(r, 400, 81054);
    expect(r.body.errors[0].message).toContain('A CNAME record with that host already exists.');
    expect(r.text).toContain('\\u003chttps://');
  });

  t.test('a CNAME coexists with TXT and MX at the same name', async (c) => {
    await c.made({ type: 'CNAME', name: c.name('mix'), content: 'example.net' });
    await c.made({ type: 'TXT', name: c.name('mix'), content: '"ok"' });
    await c.made({ type: 'MX', name: c.name('mix'), content: 'mx.example.net', priority: 10 });
    const list = await c.list(`name=${c.name('mix')}`);
    expect(list.body.result.map((r: { type: string }) => r.type).sort()).toEqual(['CNAME', 'MX', 'TXT']);
  });

  t.test('two A records with different addresses at one name are fine (round robin)', async (c) => {
    await c.made({ type: 'A', name: c.name('rr'), content: '198.51.100.1' });
    await c.made({ type: 'A', name: c.name('rr'), content: '198.51.100.2' });
  });

  t.test('an NS delegation refuses A at its name (81056) but allows TXT there and A below it', async (c) => {
    await c.made({ type: 'NS', name: c.name('del'), content: 'ns1.example.net' });
    expectError(
      await c.create({ type: 'A', name: c.name('del'), content: '198.51.100.1' }),
      400,
      81056,
      'NS records with that host already exist.',
    );
    await c.made({ type: 'TXT', name: c.name('del'), content: '"ok"' });
    await c.made({ type: 'A', name: `host.${c.name('del')}`, content: '198.51.100.1' });
  });

  t.test('a DS needs NS records at its name: refused (400) without, taken with', async (c) => {
    const ds = {
      type: 'DS',
      name: c.name('sec'),
      data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: 'ab'.repeat(32) },
    };
    const alone = await c.create(ds);
    expect(alone.status).toBe(400);
    expect(alone.body.success).toBe(false);
    await c.made({ type: 'NS', name: c.name('sec'), content: 'ns1.example.net' });
    await c.made(ds);
  });

  t.test("SRV's retired data.service/proto/name are refused with the text production gave", async (c) => {
    const r = await c.create({
      type: 'SRV',
      name: `_sip._tcp.${c.name()}`,
      data: {
        service: '_sip',
        proto: '_tcp',
        name: c.name(),
        priority: 1,
        weight: 1,
        port: 5060,
        target: 'sip.example.com',
      },
    });
    expect(r.status).toBe(400);
    // terraform-provider-cloudflare#3502 (2024-07) quotes the text; the code was not quoted.
    expect(r.body.errors.map((e: { message: string }) => e.message)).toEqual([
      "SRV data fields 'service', 'proto' and 'name' are no longer supported",
    ]);
  });

  t.test('an identical record differs only in ttl, proxied or comment: still 81058', async (c) => {
    await c.made({ type: 'A', name: c.name('dup'), content: '198.51.100.1', ttl: 300 });
    expectError(
      await c.create({
        type: 'A',
        name: c.name('dup'),
        content: '198.51.100.1',
        ttl: 600,
        proxied: true,
        comment: 'x',
      }),
      400,
      81058,
      'An identical record already exists.',
    );
  });
});
