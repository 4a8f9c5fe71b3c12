/**
 * DNS questions in the DnsApi's test support (issue 24): each question the DNS server answers, over
 * UDP and TCP, and each `api.resolve`, is in the call log with surface `dns`; fault rules with
 * surface `dns` answer SERVFAIL (or another rcode), drop the question or delay it, so a resolver's
 * or an ACME client's retries can be tested. Over real UDP with dig (bind9-dnsutils; skipped naming
 * it when missing) and with Node's own resolver.
 */
import { execFile } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DnsApi } from '../../../lib/index.js';
import { startDnsServer, type RunningDnsServer } from '../../../lib/node/index.js';
import { debianCommand } from '../../helpers/debian-command.js';

const run = promisify(execFile);
const dig = debianCommand('dig', 'bind9-dnsutils');
const withDig = dig ? it : it.skip;
const digName = dig ? 'dig' : 'skipped: Debian package bind9-dnsutils is not installed';

describe('DNS questions: the call log and fault rules', { timeout: 30_000 }, () => {
  let server: RunningDnsServer & { dnsPort: number };
  const digAsk = async (...args: string[]) =>
    (await run(dig!, ['@127.0.0.1', '-p', String(server.dnsPort), ...args])).stdout;
  const resolver = () => {
    const r = new Resolver({ timeout: 300, tries: 3 });
    r.setServers([`127.0.0.1:${server.dnsPort}`]);
    return r;
  };

  beforeAll(async () => {
    server = await startDnsServer({ zones: [{ name: 'example.com' }], dnsPort: 0, log: true });
    server.api.seed('example.com', [{ type: 'TXT', name: '_acme-challenge', content: 'token-1', ttl: 120 }]);
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.api.faults.clear();
    server.api.log.clear();
  });

  withDig(`a question over UDP (${digName}) is in the log with its answer`, async () => {
    const out = await digAsk('+time=2', '+tries=1', '_acme-challenge.example.com', 'TXT');
    expect(out).toMatch(/status: NOERROR/);
    const [entry] = server.api.log.filter({ surface: 'dns' });
    expect(entry).toMatchObject({
      surface: 'dns',
      transport: 'udp',
      method: 'QUERY',
      path: '_acme-challenge.example.com',
      query: { type: 'TXT' },
      rcode: 'NOERROR',
    });
    expect((entry!.response as { answers: { data: unknown }[] }).answers.map((a) => a.data)).toEqual([['token-1']]);
    expect(server.api.log.filter({ surface: 'api' })).toEqual([]);
  });

  withDig(`SERVFAIL once: dig (${digName}) sees SERVFAIL, then the answer`, async () => {
    server.api.faults.add({
      surface: 'dns',
      name: '_acme-challenge.example.com.',
      type: 'TXT',
      rcode: 'SERVFAIL',
      times: 1,
    });
    expect(await digAsk('+time=2', '+tries=1', '_acme-challenge.example.com', 'TXT')).toMatch(/status: SERVFAIL/);
    expect(await digAsk('+time=2', '+tries=1', '_acme-challenge.example.com', 'TXT')).toMatch(/status: NOERROR/);
    expect(server.api.log.filter({ surface: 'dns' }).map((e) => [e.rcode, e.injected !== undefined])).toEqual([
      ['SERVFAIL', true],
      ['NOERROR', false],
    ]);
  });

  withDig(`drop: dig (${digName}) gets no answer and retries; the retry is answered`, async () => {
    server.api.faults.add({ surface: 'dns', name: /acme/, drop: true, times: 1 });
    const out = await digAsk('+time=1', '+tries=2', '_acme-challenge.example.com', 'TXT');
    expect(out).toMatch(/status: NOERROR/);
    expect(server.api.log.filter({ surface: 'dns' }).map((e) => e.rcode)).toEqual(['dropped', 'NOERROR']);
  });

  it("Node's resolver retries a dropped question, and one that is dropped every time times out", async () => {
    server.api.faults.add({ surface: 'dns', type: 'TXT', drop: true, times: 2 });
    expect(await resolver().resolveTxt('_acme-challenge.example.com')).toEqual([['token-1']]);
    expect(server.api.log.filter({ surface: 'dns', rcode: 'dropped' })).toHaveLength(2);
    server.api.faults.add({ surface: 'dns', drop: true, times: Infinity });
    await expect(resolver().resolveTxt('_acme-challenge.example.com')).rejects.toMatchObject({ code: 'ETIMEOUT' });
  });

  it('delay: the answer comes after the delay, on the double clock', async () => {
    server.api.faults.add({ surface: 'dns', delay: 200 });
    const started = Date.now();
    expect(await resolver().resolveTxt('_acme-challenge.example.com')).toEqual([['token-1']]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(server.api.log.last({ surface: 'dns' })).toMatchObject({
      rcode: 'NOERROR',
      injected: { delay: 200, failed: false },
    });
  });

  it('an API rule never catches a DNS question, nor a DNS rule an API request', async () => {
    server.api.faults.add({ status: 500, times: Infinity });
    expect(await resolver().resolveTxt('_acme-challenge.example.com')).toEqual([['token-1']]);
    server.api.faults.clear();
    server.api.faults.add({ surface: 'dns', times: Infinity });
    const res = await server.api.fetch(`${server.baseURL}/zones`, {
      headers: { authorization: `Bearer ${'t'.repeat(40)}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('DNS questions in process: api.resolve', () => {
  it('is logged with transport in-process and faultable: SERVFAIL, NXDOMAIN, dropped (ETIMEOUT)', async () => {
    // README: dns-question-faults
    const api = new DnsApi({ zones: [{ name: 'example.com' }], log: true });
    api.seed('example.com', [{ type: 'A', name: 'www', content: '192.0.2.1' }]);
    api.faults.add({ surface: 'dns', rcode: 'SERVFAIL', times: 1 });
    expect((await api.resolve('www.example.com')).rcode).toBe('SERVFAIL');
    expect((await api.resolve('www.example.com')).rcode).toBe('NOERROR');
    api.faults.add({ surface: 'dns', name: 'WWW.example.com.', type: 'a', rcode: 'NXDOMAIN', times: 1 });
    expect((await api.resolve('www.example.com', 'TXT')).rcode).toBe('NOERROR'); // another type: not caught
    expect((await api.resolve('www.example.com')).rcode).toBe('NXDOMAIN');
    // README: end
    api.faults.add({ surface: 'dns', drop: true });
    await expect(api.resolve('www.example.com')).rejects.toMatchObject({
      code: 'ETIMEOUT',
      syscall: 'queryA',
      message: 'queryA ETIMEOUT www.example.com',
    });
    expect(api.log.filter({ surface: 'dns' }).map((e) => [e.transport, e.rcode])).toEqual([
      ['in-process', 'SERVFAIL'],
      ['in-process', 'NOERROR'],
      ['in-process', 'NOERROR'],
      ['in-process', 'NXDOMAIN'],
      ['in-process', 'dropped'],
    ]);
  });

  it('refuses rules that mix the two surfaces', () => {
    const api = new DnsApi();
    expect(() => api.faults.add({ surface: 'dns', status: 500 })).toThrow(/'status' is for API requests/);
    expect(() => api.faults.add({ rcode: 'SERVFAIL' })).toThrow(/add surface: 'dns'/);
    expect(() => api.faults.add({ surface: 'dns', rcode: 'NOERROR' as never })).toThrow(/rcode must be one of/);
    expect(() => api.faults.add({ surface: 'dns', drop: true, rcode: 'REFUSED' })).toThrow(/not both/);
  });
});

describe('DNS questions and the answer cache', () => {
  it('a fault rule added after an answer was cached still catches the next question', async () => {
    const server = await startDnsServer({ zones: [{ name: 'example.com' }], dnsPort: 0 }); // no log: the cache is on
    try {
      server.api.seed('example.com', [{ type: 'TXT', name: 'c', content: 'cached' }]);
      const r = new Resolver({ timeout: 300, tries: 1 });
      r.setServers([`127.0.0.1:${server.dnsPort}`]);
      expect(await r.resolveTxt('c.example.com')).toEqual([['cached']]);
      expect(await r.resolveTxt('c.example.com')).toEqual([['cached']]); // from the cache
      server.api.faults.add({ surface: 'dns', rcode: 'SERVFAIL', times: 1 });
      await expect(r.resolveTxt('c.example.com')).rejects.toMatchObject({ code: 'ESERVFAIL' });
      expect(await r.resolveTxt('c.example.com')).toEqual([['cached']]);
    } finally {
      await server.close();
    }
  });
});
