import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '../../lib/dns.js';
import { parseTtl } from '../../lib/dns/bind.js';
import { txtStrings } from '../../lib/dns/rdata.js';
import { schemaErrors } from './support.js';
import { setup, TOKEN } from './helpers.js';

async function importFile(s: ReturnType<typeof setup>, file: string, proxied?: string) {
  const form = new FormData();
  form.append('file', file);
  if (proxied !== undefined) form.append('proxied', proxied);
  const res = await s.api.fetch(s.url('/import'), {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

describe('BIND import and export', () => {
  it('reads $ORIGIN, $TTL, blank owners, @, relative names, classes, parentheses and comments', async () => {
    const s = setup({ compat: 'today' });
    const file = [
      '$ORIGIN example.com.',
      '$TTL 3600',
      '@ IN SOA ns.example.com. admin.example.com. (',
      '      2024010101 ; serial',
      '      7200 3600 1209600 300 )',
      '@ 86400 IN NS ada.ns.cloudflare.com.',
      'www IN A 198.51.100.1 ; front door cf_tags=cf-proxied:true,env:prod,note:"a, b"',
      '    IN AAAA 2001:db8::1',
      'mail 300 A 198.51.100.2',
      '@ MX 10 mail',
      '@ TXT "v=spf1 mx -all"',
      '_sip._tcp SRV 10 5 5060 sip.example.com.',
      'caa CAA 0 issue "letsencrypt.org"',
      'alias CNAME www ; cf_tags=cf-flatten-cname',
    ].join('\n');
    const r = await importFile(s, file);
    expect(schemaErrors('dns-records_dns_response_import_scan', r.body)).toEqual([]);
    expect(r.body.result).toEqual({ recs_added: 8, total_records_parsed: 8 });
    const by = (name: string, type: string) =>
      s.api.records('example.com').find((x) => x.name === name && x.type === type)!;
    expect(by('www.example.com', 'A')).toMatchObject({
      proxied: true,
      ttl: 1,
      comment: 'front door',
      tags: ['env:prod', 'note:a, b'],
    });
    expect(by('www.example.com', 'AAAA')).toMatchObject({ content: '2001:db8::1', ttl: 3600, proxied: false });
    expect(by('mail.example.com', 'A')).toMatchObject({ ttl: 300 });
    expect(by('example.com', 'MX')).toMatchObject({ content: 'mail.example.com', priority: 10 });
    expect(by('example.com', 'TXT').content).toBe('"v=spf1 mx -all"');
    expect(by('_sip._tcp.example.com', 'SRV')).toMatchObject({ content: '5 5060 sip.example.com', priority: 10 });
    expect(by('caa.example.com', 'CAA').data).toEqual({ flags: 0, tag: 'issue', value: 'letsencrypt.org' });
    expect(by('alias.example.com', 'CNAME')).toMatchObject({
      content: 'www.example.com',
      settings: { flatten_cname: true },
    });
  });

  it('the form field proxied=true applies to proxiable records without a cf-proxied tag', async () => {
    const s = setup();
    await importFile(
      s,
      'a.example.com. 300 IN A 198.51.100.1\nb.example.com. 300 IN A 198.51.100.2 ; cf_tags=cf-proxied:false\nt.example.com. 300 IN TXT "x"',
      'true',
    );
    expect(s.api.records('example.com').map((r) => [r.name, r.proxied])).toEqual([
      ['a.example.com', true],
      ['b.example.com', false],
      ['t.example.com', false],
    ]);
  });

  it('$GENERATE expands; $INCLUDE is refused and nothing is added', async () => {
    const s = setup();
    const gen = await importFile(s, '$GENERATE 1-5 host-$ A 198.51.100.$');
    expect(gen.body.result).toEqual({ recs_added: 5, total_records_parsed: 5 });
    expect(s.api.records('example.com').map((r) => r.content)).toContain('198.51.100.5');
    const inc = await importFile(s, 'x.example.com. 300 IN A 198.51.100.9\n$INCLUDE other.zone');
    expect(inc.status).toBe(400);
    expect(inc.body.errors[0].message).toBe('$INCLUDE directive not allowed');
    expect(s.api.records('example.com')).toHaveLength(5);
  });

  it('records that fail are skipped with one message each; the rest are added', async () => {
    const s = setup();
    await s.create({ type: 'A', name: 'taken', content: '198.51.100.1' });
    const r = await importFile(
      s,
      'taken.example.com. 300 IN A 198.51.100.1\nbad.example.com. 300 IN A 999.1.1.1\nfine.example.com. 300 IN A 198.51.100.3',
    );
    expect(r.body).toMatchObject({ success: true, result: { recs_added: 1, total_records_parsed: 3 } });
    expect(r.body.messages).toEqual([
      { code: 81058, message: 'taken.example.com: An identical record already exists.' },
      { code: 9005, message: 'bad.example.com: Content for A record must be a valid IPv4 address.' },
    ]);
  });

  it('import needs multipart with a file; JSON is "Failed to parse form data…"', async () => {
    const s = setup();
    const json = await s.call('POST', '/import', { file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.errors[0].message).toBe(
      'Failed to parse form data. Make sure the Content-Type is multipart/form-data.',
    );
    const form = new FormData();
    form.append('proxied', 'true');
    const res = await s.api.fetch(s.url('/import'), {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: form,
    });
    expect(res.status).toBe(400);
  });

  it('export → import into an empty zone reproduces every record type', async () => {
    const a = setup({}, { plan: 'enterprise' });
    const records = [
      { type: 'A', name: 'www', content: '198.51.100.1', proxied: true, comment: 'web', tags: ['env:prod'] },
      { type: 'AAAA', name: 'www', content: '2001:db8::1', ttl: 300 },
      { type: 'CNAME', name: 'blog', content: 'host.example.net', settings: { flatten_cname: true } },
      { type: 'MX', name: '@', content: 'mx.example.net', priority: 5, ttl: 3600 },
      { type: 'TXT', name: '@', content: '"v=spf1 -all"' },
      { type: 'NS', name: 'dept', content: 'ns1.example.net' },
      { type: 'SRV', name: '_sip._tcp', data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' } },
      { type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
      { type: 'URI', name: '_ftp._tcp', priority: 10, data: { weight: 1, target: 'ftp://ftp.example.com/' } },
      {
        type: 'DS',
        name: 'dept',
        data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: '1f987cc6583e92df0890718c42' },
      },
      { type: 'SSHFP', name: 'ssh', data: { algorithm: 4, type: 2, fingerprint: 'abcdef01' } },
      { type: 'HTTPS', name: 'svc', data: { priority: 1, target: '.', value: 'alpn="h2"' } },
      {
        type: 'NAPTR',
        name: 'sip',
        data: {
          order: 100,
          preference: 10,
          flags: 'S',
          service: 'SIP+D2U',
          regex: '',
          replacement: '_sip._udp.example.com',
        },
      },
      {
        type: 'LOC',
        name: 'loc',
        data: {
          lat_degrees: 37,
          lat_minutes: 46,
          lat_seconds: 46,
          lat_direction: 'N',
          long_degrees: 122,
          long_minutes: 23,
          long_seconds: 35,
          long_direction: 'W',
          altitude: 0,
          size: 100,
          precision_horz: 0,
          precision_vert: 0,
        },
      },
    ];
    for (const r of records) expect((await a.create(r)).body.errors, JSON.stringify(r)).toEqual([]);
    const text = (await a.call('GET', '/export')).body as string;
    const b = setup({}, { plan: 'enterprise' });
    const r = await importFile(b, text);
    expect(r.body.messages).toEqual([]);
    expect(r.body.result.recs_added).toBe(records.length);
    const shape = (x: DnsRecord) => [
      x.name,
      x.type,
      x.content,
      x.priority,
      x.ttl,
      x.proxied,
      x.comment,
      x.tags,
      x.settings,
    ];
    expect(b.api.records('example.com').map(shape)).toEqual(a.api.records('example.com').map(shape));
  });
  it('quoted parentheses are text, not a continuation (fuzz)', async () => {
    const s = setup({ compat: 'today' });
    const r = await importFile(s, ['www 300 IN TXT "v=DKIM1; p=(abc)" ; key', 'next 300 IN A 198.51.100.1'].join('\n'));
    expect(r.body.messages).toEqual([]);
    expect(r.body.result).toEqual({ recs_added: 2, total_records_parsed: 2 });
    const txt = s.api.records('example.com').find((x) => x.type === 'TXT')!;
    expect(txt).toMatchObject({ content: '"v=DKIM1; p=(abc)"', comment: 'key' });
  });

  it('a comment that mentions cf_tags= comes back as the comment (fuzz)', async () => {
    const a = setup();
    await a.create({ type: 'A', name: 'a', content: '198.51.100.1', comment: 'cf_tags=evil' });
    await a.create({ type: 'TXT', name: 'b', content: '"x"', comment: 'see cf_tags=a', tags: ['env:prod'] });
    const text = (await a.call('GET', '/export')).body as string;
    const b = setup();
    const r = await importFile(b, text);
    expect(r.body.messages).toEqual([]);
    const shape = (x: DnsRecord) => [x.name, x.comment, x.tags, x.proxied];
    expect(b.api.records('example.com').map(shape)).toEqual(a.api.records('example.com').map(shape));
  });

  it('content with a line break exports on one line (\\010), so the file still imports (fuzz)', async () => {
    const a = setup();
    await a.create({ type: 'TXT', name: 'nl', content: 'line\nbreak' });
    await a.create({ type: 'A', name: 'after', content: '198.51.100.1' });
    const text = (await a.call('GET', '/export')).body as string;
    expect(text).toContain('nl.example.com.\t1\tIN\tTXT\t"line\\010break"');
    const r = await importFile(setup(), text);
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ recs_added: 2, total_records_parsed: 2 });
  });
  it('an owner outside the zone is skipped with a message, not made relative (fuzz)', async () => {
    const s = setup();
    const r = await importFile(
      s,
      [
        'www.other.org. 300 IN A 198.51.100.1',
        '$ORIGIN other.org.',
        'mail 300 IN A 198.51.100.2',
        '$ORIGIN example.com.',
        'ok 300 IN A 198.51.100.3',
        'EXAMPLE.COM. 300 IN NS ada.ns.cloudflare.com.',
      ].join('\n'),
    );
    expect(r.body.result).toEqual({ recs_added: 1, total_records_parsed: 3 });
    expect(r.body.messages).toEqual([
      { code: 9000, message: 'www.other.org: DNS name is invalid.' },
      { code: 9000, message: 'mail.other.org: DNS name is invalid.' },
    ]);
    expect(s.api.records('example.com').map((x) => x.name)).toEqual(['ok.example.com']);
  });
  it("unquoted TXT (today's mode) exports quoted as document mode stores it: a backslash stays a backslash (fuzz)", async () => {
    const a = setup();
    await a.create({ type: 'TXT', name: 'bs', content: 'a\\b' });
    const text = (await a.call('GET', '/export')).body as string;
    expect(text).toContain('bs.example.com.\t1\tIN\tTXT\t"a\\\\b"');
    const b = setup({ compat: 'document' });
    await importFile(b, text);
    // Imported into a document-mode zone, it is what creating the same text there gives.
    const direct = setup({ compat: 'document' });
    await direct.create({ type: 'TXT', name: 'bs', content: 'a\\b' });
    expect(b.api.records('example.com')[0]!.content).toBe(direct.api.records('example.com')[0]!.content);
  });
  it('unquoted TXT words are separate character-strings (RFC 1035 §5.1), as quoted ones are (issue 26)', async () => {
    const s = setup({ compat: 'today' });
    const r = await importFile(
      s,
      [
        'txt 300 IN TXT unquoted words',
        'mixed 300 IN TXT "a b" c',
        'one 300 IN TXT single',
        'esc 300 IN TXT a\\032b',
      ].join('\n'),
    );
    expect(r.body.messages).toEqual([]);
    const content = (name: string) =>
      s.api.records('example.com').find((x) => x.name === `${name}.example.com`)!.content;
    expect(content('txt')).toBe('"unquoted" "words"');
    expect(txtStrings(content('txt'))).toEqual(['unquoted', 'words']);
    expect(txtStrings(content('mixed'))).toEqual(['a b', 'c']);
    expect(content('one')).toBe('single');
    expect(txtStrings(content('esc'))).toEqual(['a b']);
  });

  it('TTLs with units, as BIND reads them: 1h, 1d, 1h30m, 2H, and $TTL 1d (issue 26)', async () => {
    expect([
      parseTtl('3600'),
      parseTtl('1h'),
      parseTtl('1d2h'),
      parseTtl('1w'),
      parseTtl('1h30'),
      parseTtl('90M'),
      parseTtl('IN'),
      parseTtl('h1'),
    ]).toEqual([3600, 3600, 93600, 604800, 3630, 5400, undefined, undefined]);
    const s = setup();
    const r = await importFile(
      s,
      [
        '$TTL 1d',
        'a 1h IN A 198.51.100.1',
        'b 1h30m A 198.51.100.2',
        'c IN 2H A 198.51.100.3',
        'd A 198.51.100.4',
      ].join('\n'),
    );
    expect(r.body.messages).toEqual([]);
    expect(s.api.records('example.com').map((x) => [x.name, x.ttl])).toEqual([
      ['a.example.com', 3600],
      ['b.example.com', 5400],
      ['c.example.com', 7200],
      ['d.example.com', 86400],
    ]);
  });

  it('export loads in real tools: the SOA the zone answers (owner with its dot), names with dots, long TXT split, bytes escaped (issue 26)', async () => {
    const a = setup({}, { plan: 'enterprise' });
    const records = [
      { type: 'TXT', name: 'long', content: 'x'.repeat(300) },
      { type: 'TXT', name: 'utf', content: '"héllo \\"q\\" \\\\ ✓"' },
      { type: 'HTTPS', name: 'svc', data: { priority: 1, target: 'svc.example.net', value: 'alpn="h2"' } },
      {
        type: 'NAPTR',
        name: 'sip',
        data: {
          order: 100,
          preference: 10,
          flags: 'S',
          service: 'SIP+D2U',
          regex: '',
          replacement: '_sip._udp.example.net',
        },
      },
      { type: 'CAA', name: '@', data: { flags: 0, tag: 'iodef', value: 'mailto:sécu@example.net' } },
    ];
    for (const r of records) expect((await a.create(r)).body.errors, JSON.stringify(r)).toEqual([]);
    const lines = ((await a.call('GET', '/export')).body as string).split('\n');
    const soa = a.api.answer({ name: 'example.com', type: 'SOA' }).answers[0]!;
    const d = soa.data as Record<string, unknown>;
    expect(lines).toContain(
      `example.com.\t3600\tIN\tSOA\t${d.mname}. dns.cloudflare.com. ${d.serial} 10000 2400 604800 1800`,
    );
    expect(lines).toContain(`long.example.com.\t1\tIN\tTXT\t"${'x'.repeat(255)}" "${'x'.repeat(45)}"`);
    expect(lines).toContain('utf.example.com.\t1\tIN\tTXT\t"h\\195\\169llo \\"q\\" \\\\ \\226\\156\\147"');
    expect(lines).toContain('svc.example.com.\t1\tIN\tHTTPS\t1 svc.example.net. alpn="h2"');
    expect(lines).toContain('sip.example.com.\t1\tIN\tNAPTR\t100 10 "S" "SIP+D2U" "" _sip._udp.example.net.');
    expect(lines).toContain('example.com.\t1\tIN\tCAA\t0 iodef "mailto:s\\195\\169cu@example.net"');
    // And the file comes back as the same records.
    const b = setup({}, { plan: 'enterprise' });
    expect((await importFile(b, lines.join('\n'))).body.messages).toEqual([]);
    const wire = (x: DnsRecord) => [
      x.name,
      x.type,
      JSON.stringify(x.data ?? null),
      JSON.stringify(txtStrings(x.content)),
    ];
    expect(b.api.records('example.com').map(wire)).toEqual(a.api.records('example.com').map(wire));
  });
});
