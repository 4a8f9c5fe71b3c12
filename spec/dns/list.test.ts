import { describe, expect, it } from 'vitest';
import { setup } from './helpers.js';

async function seeded() {
  const s = setup({ compat: 'today' }, { plan: 'enterprise' });
  const recs = [
    {
      type: 'A',
      name: 'www',
      content: '198.51.100.1',
      ttl: 300,
      tags: ['env:prod', 'team:web'],
      comment: 'Front door',
    },
    { type: 'A', name: 'api', content: '198.51.100.2', ttl: 600, tags: ['env:staging'] },
    { type: 'AAAA', name: 'www', content: '2001:db8::1', tags: ['owner'] },
    { type: 'TXT', name: '_dmarc', content: '"v=DMARC1; p=none"', comment: 'mail policy' },
    { type: 'CNAME', name: 'docs', content: 'pages.example.net', proxied: true },
    { type: 'MX', name: '@', content: 'mx.example.net', priority: 10 },
  ];
  for (const r of recs) expect((await s.create(r)).status).toBe(200);
  const names = async (q: string) => {
    const r = await s.call('GET', `?${q}`);
    expect(r.status, r.text).toBe(200);
    return r.body.result.map((x: { type: string; name: string }) => `${x.type} ${x.name.replace('.example.com', '')}`);
  };
  return { s, names };
}

describe('list filters', () => {
  it('default order: type, then name ignoring punctuation', async () => {
    const { names } = await seeded();
    expect(await names('')).toEqual(['A api', 'A www', 'AAAA www', 'CNAME docs', 'MX example.com', 'TXT _dmarc']);
  });

  it('type lists: with other filters, with match=any, with pages; unknown types match nothing (no error)', async () => {
    const { s, names } = await seeded();
    expect(await names('type=AAAA,A')).toEqual(['A api', 'A www', 'AAAA www']);
    expect(await names('type=A,,AAAA,A&name.startswith=www')).toEqual(['A www', 'AAAA www']);
    expect(await names('type=A,AAAA&order=name&direction=desc')).toEqual(['AAAA www', 'A www', 'A api']);
    expect(await names('match=any&type=MX,CNAME&name=api.example.com')).toEqual([
      'A api',
      'CNAME docs',
      'MX example.com',
    ]);
    expect(await names('type=A,TXT&per_page=2&page=2')).toEqual(['TXT _dmarc']);
    // docs/conformance.md, "Choices between conflicting sources": no observed answer for an unknown type; a
    // filter that no record matches is an empty list, as for any other value.
    expect(await names('type=FOO')).toEqual([]);
    expect(await names('type=a')).toEqual([]);
    expect(await names('type=FOO,TXT')).toEqual(['TXT _dmarc']);
    // An empty list counts one page, as dns-lexicon's 2025-08 recording of an empty filtered list shows.
    expect((await s.call('GET', '?type=FOO')).body.result_info).toMatchObject({
      count: 0,
      total_count: 0,
      total_pages: 1,
    });
  });

  it('an unknown order is 400 9201 with the observed text', async () => {
    const { s } = await seeded();
    const r = await s.call('GET', '?order=size');
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { code: 9201, message: 'Order must be one of type, name, content, ttl or proxied.' },
    ]);
  });

  it('name.startswith / endswith / contains; content.contains; comment filters', async () => {
    const { names } = await seeded();
    expect(await names('name.startswith=WWW.')).toEqual(['A www', 'AAAA www']);
    expect(await names('name.endswith=docs.example.com')).toEqual(['CNAME docs']);
    expect(await names('content.contains=DMARC1')).toEqual(['TXT _dmarc']);
    expect(await names('comment.contains=door')).toEqual(['A www']);
    expect(await names('comment=mail%20policy')).toEqual(['TXT _dmarc']);
    expect(await names('comment.startswith=front')).toEqual(['A www']);
  });

  it('tags: name:value, bare name, tag_match=any, tag.present, tag.absent', async () => {
    const { names } = await seeded();
    expect(await names('tag=env:prod')).toEqual(['A www']);
    expect(await names('tag=env')).toEqual(['A api', 'A www']);
    expect(await names('tag=env:prod&tag=owner&tag_match=any')).toEqual(['A www', 'AAAA www']);
    expect(await names('tag=env:prod&tag=team:web')).toEqual(['A www']);
    expect(await names('tag.present=team')).toEqual(['A www']);
    expect(await names('tag.absent=env&type=A')).toEqual([]);
    expect(await names('tag.contains=env:stag')).toEqual(['A api']);
  });

  it('tag.<op>=name:value matches the value of tags of that name, not the joined string (fuzz)', async () => {
    const { names } = await seeded();
    expect(await names('tag.endswith=env:od')).toEqual(['A www']);
    expect(await names('tag.endswith=ENV:ING')).toEqual(['A api']);
    expect(await names('tag.contains=env:ro')).toEqual(['A www']);
    // "v:pro" is inside "env:prod", but no tag is named "v".
    expect(await names('tag.contains=v:pro')).toEqual([]);
    // A bare name applies the operator to tag names.
    expect(await names('tag.startswith=ow')).toEqual(['AAAA www']);
  });

  it('match=any ORs the filters; match=all ANDs them', async () => {
    const { names } = await seeded();
    expect(await names('type=MX&name=docs.example.com&match=any')).toEqual(['CNAME docs', 'MX example.com']);
    expect(await names('type=MX&name=docs.example.com')).toEqual([]);
    expect(await names('type=A&proxied=false&content.startswith=198.51.100.2')).toEqual(['A api']);
  });

  it('search is a case-insensitive substring over name, content, comment and tags', async () => {
    const { names } = await seeded();
    expect(await names('search=FRONT')).toEqual(['A www']);
    expect(await names('search=staging')).toEqual(['A api']);
  });

  it('orders by name, content, ttl, proxied; desc reverses, and pages walk the reversed order', async () => {
    const { names } = await seeded();
    expect(await names('order=name')).toEqual([
      'A api',
      'TXT _dmarc',
      'CNAME docs',
      'MX example.com',
      'A www',
      'AAAA www',
    ]);
    expect(await names('order=proxied&direction=desc&per_page=1')).toEqual(['CNAME docs']);
    expect(await names('order=ttl&direction=desc&per_page=2&page=1')).toEqual(['A api', 'A www']);
    expect(await names('direction=desc&per_page=4&page=2')).toEqual(['A www', 'A api']);
    expect(await names('direction=desc&per_page=4&page=3')).toEqual([]);
  });

  it('bad list parameters are 400 in the envelope', async () => {
    const { s } = await seeded();
    for (const q of [
      'per_page=0',
      'page=0',
      'page=x',
      'order=colour',
      'direction=up',
      'match=some',
      'proxied=maybe',
      'per_page=5000001',
    ]) {
      const r = await s.call('GET', `?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.success, q).toBe(false);
    }
  });

  it('the kept default order stays right through interleaved creates, renames and deletes', async () => {
    const s = setup({ compat: 'today' }, { plan: 'enterprise' });
    const ids: string[] = [];
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const order = async (q: string) =>
      (await s.call('GET', `?per_page=1000&${q}`)).body.result.map((r: { id: string }) => r.id);
    await order('type=A'); // builds the kept per-type order
    await order('');
    for (let step = 0; step < 150; step++) {
      const op = rand(3);
      if (op === 0 || ids.length < 5) {
        const type = rand(2) ? 'A' : 'TXT';
        const name = `${['_x', 'a', 'b-', 'zz', 'm'][rand(5)]}${rand(40)}`;
        const r = await s.create(
          type === 'A' ? { type, name, content: `198.51.100.${rand(250)}` } : { type, name, content: `"t${step}"` },
        );
        if (r.status === 200) ids.push(r.body.result.id);
      } else if (op === 1) {
        const id = ids[rand(ids.length)]!;
        await s.call('PATCH', `/${id}`, { name: `renamed${rand(40)}` });
      } else {
        const [id] = ids.splice(rand(ids.length), 1);
        await s.call('DELETE', `/${id}`);
      }
      // match=any with only index filters sorts afresh: an independent oracle for the kept order.
      expect(await order('type=A'), `step ${step}`).toEqual(await order('type=A&match=any'));
      expect(await order('type=TXT'), `step ${step}`).toEqual(await order('type=TXT&match=any'));
      expect(await order(''), `step ${step}`).toEqual(await order('type=A,TXT&match=any'));
    }
  });
});
