import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

// BIND export and multipart import (docs/sources/dns-api.md#export, docs/sources/dns-api.md#import).
export const bind = defineGroup('export and import', (t) => {
  t.test('export is text/plain BIND: SOA, tab-separated lines, trailing dots, cf_tags on A/CNAME', async (c) => {
    await c.made({ type: 'A', name: c.name('www'), content: '198.51.100.1', ttl: 300 });
    await c.made({ type: 'MX', name: c.name(), content: 'mx.example.net', priority: 10, ttl: 3600 });
    const r = await c.request('GET', c.url('/export'), { headers: { accept: 'text/plain' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = r.text.split('\n');
    expect(lines.some((l) => /\tIN\tSOA\t/.test(l))).toBe(true);
    expect(lines).toContain(`${c.name('www')}.\t300\tIN\tA\t198.51.100.1 ; cf_tags=cf-proxied:false`);
    expect(lines).toContain(`${c.name()}.\t3600\tIN\tMX\t10 mx.example.net.`);
  });

  t.test(
    "export's SOA line is Cloudflare's: the owner without its dot, minimum 3600",
    async (c) => {
      const r = await c.request('GET', c.url('/export'), { headers: { accept: 'text/plain' } });
      const soa = r.text.split('\n').find((l) => /\tIN\tSOA\t/.test(l));
      const zone = c.target.zoneName.replace(/\./g, '\\.');
      expect(soa).toMatch(
        new RegExp(`^${zone}\\t3600\\tIN\\tSOA\\t\\S+\\. dns\\.cloudflare\\.com\\. \\d+ 10000 2400 604800 3600$`),
      );
    },
    { difference: 'loadable-export' },
  );

  t.test(
    "import adds the file's records; importing the same file again adds none and says why",
    async (c) => {
      const file = [
        `${c.name('i1')}.\t300\tIN\tA\t198.51.100.1 ; cf_tags=cf-proxied:false`,
        `${c.name('i2')}.\t300\tIN\tTXT\t"imported"`,
        `${c.name()}.\t300\tIN\tMX\t5 mx.example.net.`,
      ].join('\n');
      const form = () => {
        const f = new FormData();
        f.append('file', new Blob([file], { type: 'text/plain' }), 'zone.txt');
        return f;
      };
      const r = await c.request('POST', c.url('/import'), { body: form() });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ success: true, result: { recs_added: 3, total_records_parsed: 3 } });
      const mx = await c.request('GET', c.url(`?type=MX&name=${c.name()}`));
      expect(mx.body.result[0]).toMatchObject({ content: 'mx.example.net', priority: 5, ttl: 300 });
      const again = await c.request('POST', c.url('/import'), { body: form() });
      expect(again.status).toBe(200);
      expect(again.body.result).toMatchObject({ recs_added: 0, total_records_parsed: 3 });
      expect(again.body.messages.length).toBeGreaterThan(0);
    },
    { difference: 'jsdom-form-data' },
  );

  t.test('import as JSON is refused: "Failed to parse form data…"', async (c) => {
    const r = await c.request('POST', c.url('/import'), { json: { file: 'x' } });
    expectError(r, 400, undefined, 'Failed to parse form data. Make sure the Content-Type is multipart/form-data.');
  });
});
