/**
 * Lifecycle rules over `/r2/buckets/{bucket}/lifecycle` (issue 18 point 4;
 * docs/sources/r2-api.md#lifecycle): the default rule a new bucket has, a PUT replacing the whole
 * set, the rule shape read back, and a rule acting on an object. What production does not establish
 * (when a rule acts, the refusals' codes) names its difference (differences.ts).
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

/**
 * The default rule's JSON, as the API shows it (recorded by third parties:
 * docs/sources/r2-api.md#lifecycle).
 */
const DEFAULT_RULE = {
  id: 'Default Multipart Abort Rule',
  enabled: true,
  conditions: {},
  abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 604800 } },
};

/** One rule of each action and condition type the SDK's `LifecycleUpdateParams.Rule` has. */
const RULES = [
  {
    id: 'expire-logs',
    enabled: true,
    conditions: { prefix: 'logs/' },
    deleteObjectsTransition: { condition: { type: 'Age', maxAge: 7776000 } },
  },
  {
    id: 'cold',
    enabled: false,
    conditions: { prefix: 'archive/' },
    storageClassTransitions: [
      { condition: { type: 'Date', date: '2031-06-01T00:00:00.000Z' }, storageClass: 'InfrequentAccess' },
    ],
    abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 86400 } },
  },
];

export const lifecycle = defineGroup('lifecycle', (t) => {
  t.test('a new bucket has the default multipart abort rule', async (c) => {
    const name = await c.make();
    const r = await c.lifecycle(name);
    expect(r.status, r.text).toBe(200);
    expect(r.body.result.rules).toEqual([DEFAULT_RULE]);
  });

  t.test(
    'a PUT replaces the whole set (the default rule too); the rules read back as sent; { rules: [] } clears them',
    async (c) => {
      const name = await c.make();
      const put = await c.putLifecycle(name, RULES);
      expect(put.body?.errors, put.text).toEqual([]);
      expect(put.status).toBe(200);
      const got = (await c.lifecycle(name)).body.result.rules;
      expect(got.map((r: { id: string }) => r.id)).toEqual(['expire-logs', 'cold']);
      expect(got[0]).toEqual(RULES[0]);
      // A date may come back in another ISO form: compared as an instant.
      const { date, ...transition } = got[1].storageClassTransitions[0].condition;
      expect([transition, Date.parse(date)]).toEqual([{ type: 'Date' }, Date.parse('2031-06-01')]);
      expect(got[1]).toMatchObject({
        id: 'cold',
        enabled: false,
        conditions: { prefix: 'archive/' },
        abortMultipartUploadsTransition: RULES[1]!.abortMultipartUploadsTransition,
      });
      expect((await c.putLifecycle(name, [])).status).toBe(200);
      expect((await c.lifecycle(name)).body.result.rules).toEqual([]);
    },
  );

  t.test(
    'a rule the API cannot take (a class other than InfrequentAccess, an abort by date, a body that is not JSON): 400 10040, the rules kept',
    async (c) => {
      const name = await c.make();
      const ia = (storageClass: string) => [
        {
          id: 'x',
          enabled: true,
          conditions: {},
          storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass }],
        },
      ];
      expectError(await c.putLifecycle(name, ia('Glacier')), 400, 10040);
      expectError(
        await c.putLifecycle(name, [
          {
            id: 'x',
            enabled: true,
            conditions: {},
            abortMultipartUploadsTransition: { condition: { type: 'Date', date: '2031-01-01T00:00:00.000Z' } },
          },
        ]),
        400,
        10040,
      );
      expectError(
        await c.request('PUT', c.url(`/${name}/lifecycle`), {
          body: '{"rules":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        10040,
      );
      expect((await c.lifecycle(name)).body.result.rules).toEqual([DEFAULT_RULE]);
    },
    { difference: 'unestablished-rule-refusal' },
  );

  t.test('a rule without conditions is refused (the schema and the SDK require it), the rules kept', async (c) => {
    const name = await c.make();
    const r = await c.putLifecycle(name, [
      { id: 'x', enabled: true, deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } } },
    ]);
    expect([r.status, r.body?.success], r.text).toEqual([400, false]);
    expect((await c.lifecycle(name)).body.result.rules).toEqual([DEFAULT_RULE]);
  });

  t.test(
    "an unknown bucket's lifecycle: 404 10006",
    async (c) => {
      const name = c.name('missing');
      expectError(await c.lifecycle(name), 404, 10006, 'The specified bucket does not exist.');
      expectError(await c.putLifecycle(name, []), 404, 10006, 'The specified bucket does not exist.');
    },
    { difference: 'unestablished-config-not-found' },
  );

  t.test(
    'an expiry already due removes the object before the next read (the double acts at the exact moment)',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'logs/old', 'x');
      await c.putObject(name, 'keep/me', 'x');
      const due = [
        {
          id: 'past',
          enabled: true,
          conditions: { prefix: 'logs/' },
          deleteObjectsTransition: { condition: { type: 'Date', date: '2000-01-01T00:00:00.000Z' } },
        },
      ];
      expect((await c.putLifecycle(name, due)).status).toBe(200);
      expect(await t.target.objectExists!(name, 'logs/old')).toBe(false);
      expect(await t.target.objectExists!(name, 'keep/me')).toBe(true);
    },
    t.target.putObject && t.target.objectExists
      ? { difference: 'unestablished-lifecycle-timing' }
      : { skip: 'the target has no putObject or objectExists' },
  );
});
