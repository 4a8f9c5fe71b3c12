/** Who may call R2's control plane (issue 18 point 7): another account, tokens without R2 permission or with read only. */
import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

export const auth = defineGroup('auth', (t) => {
  t.test('no credentials: 400 9106', async (c) => {
    expectError(await c.request('GET', c.url(), { auth: false }), 400, 9106);
  });

  t.test(
    "another account's buckets: 403 9109",
    async (c) => {
      const other = t.target.accountId === 'f'.repeat(32) ? 'e'.repeat(32) : 'f'.repeat(32);
      expectError(await c.request('GET', c.url('', other)), 403, 9109, 'Unauthorized to access requested resource');
    },
    { difference: 'unestablished-foreign-account' },
  );

  t.test(
    'a token without R2 permission: 403 10000 on every route',
    async (c) => {
      const name = await c.make();
      const auth = t.target.authWithoutR2!;
      expectError(await c.request('GET', c.url(), { auth }), 403, 10000, 'Authentication error');
      expectError(await c.request('GET', c.url(`/${name}`), { auth }), 403, 10000, 'Authentication error');
      expectError(
        await c.request('POST', c.url(), { auth, json: { name: c.name('other') } }),
        403,
        10000,
        'Authentication error',
      );
    },
    t.target.authWithoutR2 ? {} : { skip: 'the target has no credential without R2 permission (authWithoutR2)' },
  );

  t.test(
    'a read-only token reads, and is refused writes with 403 10000',
    async (c) => {
      const name = await c.make();
      const auth = t.target.authReadOnly!;
      expect((await c.request('GET', c.url(`/${name}`), { auth })).status).toBe(200);
      expectError(await c.request('DELETE', c.url(`/${name}`), { auth }), 403, 10000);
      expectError(await c.request('POST', c.url(), { auth, json: { name: c.name('other') } }), 403, 10000);
      expect((await c.get(name)).status).toBe(200);
    },
    t.target.authReadOnly ? {} : { skip: 'the target has no read-only credential (authReadOnly)' },
  );
});
