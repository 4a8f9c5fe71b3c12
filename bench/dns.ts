/**
 * Requests per second through `api.fetch` on a zone of 10,000 records: create, get, and filtered
 * lists (exact name; type; type + exact name). Prints its own table; `bench/run.ts` calls it.
 */
import { DnsApi } from '../lib/dns.js';

const ZONE_SIZE = 10_000;
const BASE = 'https://api.cloudflare.com/client/v4';

interface Row {
  operation: string;
  requests: number;
  seconds: number;
}

async function timed(operation: string, requests: number, fn: (i: number) => Promise<unknown>): Promise<Row> {
  const start = performance.now();
  for (let i = 0; i < requests; i++) await fn(i);
  return { operation, requests, seconds: (performance.now() - start) / 1000 };
}

export async function benchDns(): Promise<void> {
  const api = new DnsApi({ zones: [{ name: 'bench.example', plan: 'enterprise' }], credentials: [{ token: 'bench' }] });
  const zoneId = api.zones[0]!.id;
  const url = `${BASE}/zones/${zoneId}/dns_records`;
  const headers = new Headers({ authorization: 'Bearer bench', 'content-type': 'application/json' });
  const ids: string[] = [];
  const expectOk = async (res: Promise<Response>) => {
    const r = await res;
    if (r.status !== 200) throw new Error(`bench: ${r.status} ${await r.text()}`);
    return r.json();
  };

  // Warm the JIT on a throwaway double so the first measured row is not paying for compilation.
  const warm = new DnsApi({ zones: [{ name: 'warm.example', plan: 'enterprise' }], credentials: [{ token: 'bench' }] });
  const warmUrl = `${BASE}/zones/${warm.zones[0]!.id}/dns_records`;
  for (let i = 0; i < 3000; i++) {
    const r = await warm.fetch(warmUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'A', name: `w${i}`, content: '198.51.100.1' }),
    });
    const { result } = await r.json();
    await (await warm.fetch(`${warmUrl}/${result.id}`, { headers })).json();
    await (await warm.fetch(`${warmUrl}?type=A&name=w${i}.warm.example`, { headers })).json();
  }

  const rows: Row[] = [];
  // Half A records, half TXT: the type filter then selects 5,000 of 10,000.
  rows.push(
    await timed(`create (zone grows 0 → ${ZONE_SIZE})`, ZONE_SIZE, async (i) => {
      const body =
        i % 2 === 0
          ? {
              type: 'A',
              name: `host-${i}.bench.example`,
              content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
              ttl: 300,
            }
          : { type: 'TXT', name: `host-${i - 1}.bench.example`, content: `"v=${i}"`, ttl: 300 };
      const json = await expectOk(api.fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }));
      ids.push(json.result.id);
    }),
  );
  const N = 20_000;
  rows.push(
    await timed('get by id', N, (i) => expectOk(api.fetch(`${url}/${ids[(i * 7919) % ids.length]}`, { headers }))),
  );
  rows.push(
    await timed('list ?name= (exact, 2 hits)', N, (i) =>
      expectOk(api.fetch(`${url}?name=host-${(i * 2) % ZONE_SIZE}.bench.example`, { headers })),
    ),
  );
  rows.push(
    await timed('list ?type=A&name= (exact)', N, (i) =>
      expectOk(api.fetch(`${url}?type=A&name=host-${(i * 2) % ZONE_SIZE}.bench.example`, { headers })),
    ),
  );
  rows.push(
    await timed('list ?type=TXT&page=n&per_page=100', 5_000, (i) =>
      expectOk(api.fetch(`${url}?type=TXT&per_page=100&page=${(i % 50) + 1}`, { headers })),
    ),
  );
  rows.push(
    await timed('create, then list ?type=A page 1 (interleaved)', 5_000, async (i) => {
      await expectOk(
        api.fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'A', name: `mix-${i}`, content: '198.51.100.1' }),
        }),
      );
      await expectOk(api.fetch(`${url}?type=A&per_page=20`, { headers }));
    }),
  );
  rows.push(
    await timed('create on the full zone, then delete it', 5_000, async (i) => {
      const json = await expectOk(
        api.fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'A', name: `extra-${i}`, content: '198.51.100.1' }),
        }),
      );
      await expectOk(api.fetch(`${url}/${json.result.id}`, { method: 'DELETE', headers }));
    }),
  );

  // The in-process resolve path (api.answer: what `dns serve` encodes), on the same zone.
  const ask = async (name: string, type: string) => api.answer({ name, type });
  rows.push(
    await timed('answer TXT (exact name, hit)', N, (i) => ask(`host-${(i * 2) % ZONE_SIZE}.bench.example`, 'TXT')),
  );
  rows.push(await timed('answer A (NXDOMAIN + SOA)', N, (i) => ask(`missing-${i}.bench.example`, 'A')));
  rows.push(
    await timed('create TXT, answer it, delete it (ACME)', 2_000, async (i) => {
      const json = await expectOk(
        api.fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'TXT', name: `_acme-challenge.a${i}`, content: `t${i}` }),
        }),
      );
      if ((await ask(`_acme-challenge.a${i}.bench.example`, 'TXT')).answers.length !== 1)
        throw new Error('bench: TXT not answered');
      await expectOk(api.fetch(`${url}/${json.result.id}`, { method: 'DELETE', headers }));
    }),
  );

  console.log(
    `\nDNS double: requests per second through api.fetch (zone of ${ZONE_SIZE.toLocaleString('en')} records)`,
  );
  console.table(
    rows.map((r) => ({
      operation: r.operation,
      requests: r.requests,
      'req/s': Math.round(r.requests / r.seconds).toLocaleString('en'),
      'µs/req': ((r.seconds * 1e6) / r.requests).toFixed(1),
    })),
  );
}
