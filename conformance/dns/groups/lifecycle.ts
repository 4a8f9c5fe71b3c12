import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

const UNKNOWN_ID = '0123456789abcdef0123456789abcdef';

// Get, overwrite, partial update and delete (docs/sources/dns-api.md#update-and-delete).
export const lifecycle = defineGroup('lifecycle', (t) => {
  t.test('get returns the record as created', async (c) => {
    const made = await c.made({ type: 'A', name: c.name('g'), content: '198.51.100.1', ttl: 300, comment: 'hello' });
    const r = await c.get(made.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(r.body.result).toEqual(made);
  });

  t.test('an unknown well-formed id is 404 81044 for get, put, patch and delete', async (c) => {
    const msg = 'Record does not exist.';
    expectError(await c.get(UNKNOWN_ID), 404, 81044, msg);
    expectError(
      await c.request('PUT', c.url(`/${UNKNOWN_ID}`), { json: { type: 'A', name: c.name(), content: '198.51.100.1' } }),
      404,
      81044,
      msg,
    );
    expectError(await c.request('PATCH', c.url(`/${UNKNOWN_ID}`), { json: { ttl: 300 } }), 404, 81044, msg);
    expectError(await c.request('DELETE', c.url(`/${UNKNOWN_ID}`)), 404, 81044, msg);
  });

  t.test('an id that is not 32 hex is the 404 route error 7003', async (c) => {
    const r = await c.get('abc');
    expectError(r, 404, 7003);
    expect(r.body.errors[0].message).toBe(
      `Could not route to ${new URL(c.url('/abc')).pathname}, perhaps your object identifier is invalid?`,
    );
  });

  t.test('PUT overwrites, and omitted optional fields reset (comment null, ttl 1, proxied false)', async (c) => {
    const made = await c.made({
      type: 'A',
      name: c.name('p'),
      content: '198.51.100.1',
      ttl: 300,
      proxied: true,
      comment: 'c',
    });
    const r = await c.request('PUT', c.url(`/${made.id}`), {
      json: { type: 'A', name: c.name('p'), content: '198.51.100.2' },
    });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      id: made.id,
      content: '198.51.100.2',
      ttl: 1,
      proxied: false,
      comment: null,
      created_on: made.created_on,
    });
    expect(r.body.result).not.toHaveProperty('comment_modified_on');
    expect((await c.get(made.id)).body.result.content).toBe('198.51.100.2');
  });

  t.test('PUT onto the values of another record is 81058; PUT with its own values is fine', async (c) => {
    await c.made({ type: 'A', name: c.name('d'), content: '198.51.100.1' });
    const x = await c.made({ type: 'A', name: c.name('d'), content: '198.51.100.2' });
    expectError(
      await c.request('PUT', c.url(`/${x.id}`), { json: { type: 'A', name: c.name('d'), content: '198.51.100.1' } }),
      400,
      81058,
    );
    const same = await c.request('PUT', c.url(`/${x.id}`), {
      json: { type: 'A', name: c.name('d'), content: '198.51.100.2' },
    });
    expect(same.status).toBe(200);
    expect((await c.get(x.id)).body.result.content).toBe('198.51.100.2');
  });

  t.test('PATCH changes only what it sends; an empty PATCH changes nothing', async (c) => {
    const made = await c.made({ type: 'A', name: c.name('pa'), content: '198.51.100.1', ttl: 300 });
    const r = await c.request('PATCH', c.url(`/${made.id}`), { json: { comment: 'patched' } });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ content: '198.51.100.1', ttl: 300, proxied: false, comment: 'patched' });
    expect(typeof r.body.result.comment_modified_on).toBe('string');
    const empty = await c.request('PATCH', c.url(`/${made.id}`), { json: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.result).toMatchObject({
      content: '198.51.100.1',
      ttl: 300,
      comment: 'patched',
      created_on: made.created_on,
    });
  });

  t.test('PATCH proxied:true onto a TXT record is 9004 and the record is unchanged', async (c) => {
    const made = await c.made({ type: 'TXT', name: c.name('pt'), content: '"x"', ttl: 300 });
    expectError(await c.request('PATCH', c.url(`/${made.id}`), { json: { proxied: true } }), 400, 9004);
    expect((await c.get(made.id)).body.result).toEqual(made);
  });

  t.test('proxied with ttl 3600 answers ttl 1; unproxying keeps ttl 1', async (c) => {
    const made = await c.made({ type: 'A', name: c.name('px'), content: '198.51.100.1', proxied: true, ttl: 3600 });
    expect(made.ttl).toBe(1);
    const r = await c.request('PATCH', c.url(`/${made.id}`), { json: { proxied: false } });
    expect(r.body.result).toMatchObject({ proxied: false, ttl: 1 });
  });

  t.test('clearing a comment makes it null and drops comment_modified_on', async (c) => {
    const made = await c.made({ type: 'TXT', name: c.name('cc'), content: '"x"', comment: 'soon gone' });
    const r = await c.request('PATCH', c.url(`/${made.id}`), { json: { comment: null } });
    expect(r.body.result.comment).toBeNull();
    expect(r.body.result).not.toHaveProperty('comment_modified_on');
  });

  t.test('DELETE answers {id}; a second DELETE is 81044', async (c) => {
    const made = await c.made({ type: 'A', name: c.name('del'), content: '198.51.100.1' });
    const r = await c.request('DELETE', c.url(`/${made.id}`));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, result: { id: made.id } });
    expectError(await c.get(made.id), 404, 81044);
    expectError(await c.request('DELETE', c.url(`/${made.id}`)), 404, 81044);
  });

  t.test('a failed update leaves the stored record intact', async (c) => {
    const made = await c.made({ type: 'A', name: c.name('keep'), content: '198.51.100.1', ttl: 300 });
    expectError(
      await c.request('PUT', c.url(`/${made.id}`), { json: { type: 'A', name: c.name('keep'), content: 'nope' } }),
      400,
      9005,
    );
    expectError(await c.request('PATCH', c.url(`/${made.id}`), { json: { ttl: 5 } }), 400, 9021);
    expect((await c.get(made.id)).body.result).toEqual(made);
  });
});

// List: filters, match, order, pages (docs/sources/dns-api.md#list).
export const listing = defineGroup('list', (t) => {
  const seed = async (c: import('../harness.js').DnsClient) => {
    await c.made({ type: 'A', name: c.name('www'), content: '198.51.100.1', ttl: 300, comment: 'web' });
    await c.made({ type: 'A', name: c.name('api'), content: '198.51.100.2', ttl: 600 });
    await c.made({ type: 'TXT', name: c.name('www'), content: '"hello"', ttl: 120 });
    await c.made({ type: 'MX', name: c.name(), content: 'mx.example.net', priority: 10, ttl: 3600 });
    await c.made({ type: 'CNAME', name: c.name('cdn'), content: 'edge.example.net', proxied: true });
  };
  const names = (r: { body: { result: { name: string; type: string }[] } }) =>
    r.body.result.map((x) => `${x.type} ${x.name}`);

  t.test('default order is type then name; result_info counts the filtered set', async (c) => {
    await seed(c);
    const r = await c.list();
    expect(r.status).toBe(200);
    expect(names(r)).toEqual([
      `A ${c.name('api')}`,
      `A ${c.name('www')}`,
      `CNAME ${c.name('cdn')}`,
      `TXT ${c.name('www')}`,
    ]);
    expect(r.body.result_info).toMatchObject({ page: 1, per_page: 100, count: 4, total_count: 4, total_pages: 1 });
  });

  t.test('name= needs the full name: the relative form finds nothing', async (c) => {
    await seed(c);
    expect(names(await c.list(`name=${c.name('www')}`))).toEqual([`A ${c.name('www')}`, `TXT ${c.name('www')}`]);
    const rel = c.name('www').slice(0, -(c.target.zoneName.length + 1));
    expect((await c.list(`name=${rel}`)).body.result).toEqual([]);
  });

  t.test('type=, name.contains (case-insensitive), content= and proxied= filter', async (c) => {
    await seed(c);
    expect(names(await c.list('type=A'))).toEqual([`A ${c.name('api')}`, `A ${c.name('www')}`]);
    expect(names(await c.list('name.contains=WW&type=A'))).toEqual([`A ${c.name('www')}`]);
    expect(names(await c.list('content=198.51.100.2'))).toEqual([`A ${c.name('api')}`]);
    expect(names(await c.list('proxied=true'))).toEqual([`CNAME ${c.name('cdn')}`]);
  });

  t.test('type= takes a comma-separated list (type=A,AAAA&name=…); a repeated type= is not combined', async (c) => {
    await seed(c);
    await c.made({ type: 'AAAA', name: c.name('www'), content: '2001:db8::4' });
    const www = c.name('www');
    const both = [`A ${www}`, `AAAA ${www}`];
    expect(names(await c.request('GET', c.url(`?type=A,AAAA&name=${www}`)))).toEqual(both);
    expect(names(await c.request('GET', c.url(`?type=A%2CAAAA&name=${www}`)))).toEqual(both);
    expect(names(await c.list('type=TXT,A'))).toEqual([`A ${c.name('api')}`, `A ${www}`, `TXT ${www}`]);
    // Only the first of repeated type parameters is read (jmrplens/Cloudflare-DNS-Updater#111, 2026).
    expect(names(await c.request('GET', c.url(`?type=A&type=AAAA&name=${www}`)))).toEqual([`A ${www}`]);
  });

  t.test('order=name collates names ignoring punctuation: pg10 < pg19 < pg1 < pg2, _dmarc among the d…', async (c) => {
    for (const label of ['pg2', 'pg1', '_dmarc', 'pg19', 'e', 'pg10', 'c']) {
      await c.made({ type: 'TXT', name: c.name(label), content: '"x"' });
    }
    const r = await c.list('order=name');
    expect(r.body.result.map((x: { name: string }) => x.name)).toEqual(
      ['c', '_dmarc', 'e', 'pg10', 'pg19', 'pg1', 'pg2'].map((l) => c.name(l)),
    );
  });

  t.test('an order= the API does not know is 400 9201', async (c) => {
    expectError(await c.list('order=size'), 400, 9201, 'Order must be one of type, name, content, ttl or proxied.');
  });

  t.test('match=any with two names returns both', async (c) => {
    await seed(c);
    const r = await c.request('GET', c.url(`?match=any&name=${c.name('api')}&name=${c.name('cdn')}`));
    expect(names(r)).toEqual([`A ${c.name('api')}`, `CNAME ${c.name('cdn')}`]);
  });

  t.test('comment.present and comment.absent', async (c) => {
    await seed(c);
    expect(names(await c.list('comment.present='))).toEqual([`A ${c.name('www')}`]);
    expect((await c.list('comment.absent=')).body.result).toHaveLength(3);
  });

  t.test('order=ttl&direction=desc', async (c) => {
    await seed(c);
    const r = await c.list('order=ttl&direction=desc');
    expect(r.body.result.map((x: { ttl: number }) => x.ttl)).toEqual([600, 300, 120, 1]);
  });

  t.test('pages: per_page splits, and a page past the end is an empty success', async (c) => {
    await seed(c);
    const p1 = await c.list('per_page=3');
    const p2 = await c.list('per_page=3&page=2');
    expect(p1.body.result).toHaveLength(3);
    expect(p2.body.result).toHaveLength(1);
    expect(p1.body.result_info).toMatchObject({ page: 1, per_page: 3, count: 3, total_count: 4, total_pages: 2 });
    expect(p2.body.result_info).toMatchObject({ page: 2, count: 1 });
    const past = await c.list('per_page=3&page=99');
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ success: true, result: [] });
  });

  t.test('an empty list counts one page: total_pages 1, not 0', async (c) => {
    const r = await c.list(`name=${c.name('nothing-here')}`);
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual([]);
    expect(r.body.result_info).toMatchObject({ page: 1, count: 0, total_count: 0, total_pages: 1 });
  });
});

// Batch: ordered, all-or-nothing (docs/sources/dns-api.md#batch).
export const batch = defineGroup('batch', (t) => {
  t.test('deletes run before posts, so one batch can replace a record with an identical one', async (c) => {
    const old = await c.made({ type: 'A', name: c.name('b'), content: '198.51.100.1' });
    const r = await c.request('POST', c.url('/batch'), {
      json: { deletes: [{ id: old.id }], posts: [{ type: 'A', name: c.name('b'), content: '198.51.100.1' }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.result.deletes.map((x: { id: string }) => x.id)).toEqual([old.id]);
    expect(r.body.result.posts).toHaveLength(1);
    expect(r.body.result.posts[0].id).not.toBe(old.id);
  });

  t.test('patches and puts apply in one request and come back as stored', async (c) => {
    const a = await c.made({ type: 'A', name: c.name('p1'), content: '198.51.100.1' });
    const b = await c.made({ type: 'A', name: c.name('p2'), content: '198.51.100.2' });
    const r = await c.request('POST', c.url('/batch'), {
      json: {
        patches: [{ id: a.id, ttl: 300 }],
        puts: [{ id: b.id, type: 'A', name: c.name('p2'), content: '198.51.100.3' }],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.result.patches[0]).toMatchObject({ id: a.id, ttl: 300 });
    expect(r.body.result.puts[0]).toMatchObject({ id: b.id, content: '198.51.100.3' });
  });

  t.test('one invalid post and nothing is applied, not even the deletes before it', async (c) => {
    const keep = await c.made({ type: 'A', name: c.name('k'), content: '198.51.100.1' });
    const r = await c.request('POST', c.url('/batch'), {
      json: {
        deletes: [{ id: keep.id }],
        posts: [
          { type: 'A', name: c.name('n1'), content: '198.51.100.9' },
          { type: 'A', name: c.name('n2'), content: 'not-an-ip' },
        ],
      },
    });
    expectError(r, 400, 9005);
    expect((await c.get(keep.id)).body.result).toEqual(keep);
    expect((await c.list(`name=${c.name('n1')}`)).body.result).toEqual([]);
  });
});
