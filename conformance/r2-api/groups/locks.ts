/**
 * Bucket locks over `/r2/buckets/{bucket}/lock` (issue 18 point 5; docs/sources/r2-api.md#locks,
 * docs r2/buckets/bucket-locks): none on a new bucket, a PUT replacing every rule, the rule
 * shape read back, a locked object kept from deletion, and locks winning over lifecycle. The cleanup
 * clears a test's locks before it deletes its objects (harness.ts).
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

/**
 * One rule of each condition type (the SDK's `LockUpdateParams.Rule`: `maxAgeSeconds`, not
 * `maxAge`).
 */
const RULES = [
  { id: 'days', enabled: true, prefix: 'invoices/', condition: { type: 'Age', maxAgeSeconds: 2592000 } },
  { id: 'forever', enabled: true, prefix: 'legal/', condition: { type: 'Indefinite' } },
  { id: 'off', enabled: false, condition: { type: 'Age', maxAgeSeconds: 60 } },
];

const needsObjects = (t: { target: { putObject?: unknown; deleteObject?: unknown; objectExists?: unknown } }) =>
  t.target.putObject && t.target.deleteObject && t.target.objectExists
    ? undefined
    : 'the target has no putObject, deleteObject or objectExists';

export const locks = defineGroup('locks', (t) => {
  t.test('a new bucket has no lock rules; a PUT replaces them all and they read back as sent', async (c) => {
    const name = await c.make();
    const first = await c.locks(name);
    expect(first.status, first.text).toBe(200);
    expect(first.body.result.rules ?? []).toEqual([]);
    const put = await c.putLocks(name, RULES);
    expect(put.body?.errors, put.text).toEqual([]);
    expect((await c.locks(name)).body.result.rules).toEqual(RULES);
    expect((await c.putLocks(name, [RULES[1]])).status).toBe(200);
    expect((await c.locks(name)).body.result.rules).toEqual([RULES[1]]);
  });

  const skipObjects = needsObjects(t);
  t.test(
    'a locked object is kept from deletion; other prefixes are not; once the rule is gone it can be deleted',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'legal/contract', 'x');
      await c.putObject(name, 'tmp/scratch', 'x');
      expect((await c.putLocks(name, RULES)).status).toBe(200);
      expect(await c.deleteObject(name, 'legal/contract')).toBeInstanceOf(Error);
      expect(await t.target.objectExists!(name, 'legal/contract')).toBe(true);
      expect(await c.deleteObject(name, 'tmp/scratch')).toBeUndefined();
      expect(await t.target.objectExists!(name, 'tmp/scratch')).toBe(false);
      expect((await c.putLocks(name, [])).status).toBe(200);
      expect(await c.deleteObject(name, 'legal/contract')).toBeUndefined();
      expect(await t.target.objectExists!(name, 'legal/contract')).toBe(false);
    },
    skipObjects ? { skip: skipObjects } : {},
  );

  t.test(
    "the refusal is R2's 10069 with its text",
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'k', 'x');
      expect((await c.putLocks(name, [{ id: 'all', enabled: true, condition: { type: 'Indefinite' } }])).status).toBe(
        200,
      );
      const refused = await c.deleteObject(name, 'k');
      expect(refused?.message).toMatch(/10069/);
      expect(refused?.message).toContain(
        'The object is locked by a bucket lock rule and cannot be deleted or overwritten.',
      );
    },
    skipObjects ? { skip: skipObjects } : { difference: 'unestablished-locked-text' },
  );

  t.test(
    'locks win over lifecycle: an expiry already due leaves a locked object',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'legal/contract', 'x');
      expect((await c.putLocks(name, [RULES[1]])).status).toBe(200);
      const due = [
        {
          id: 'past',
          enabled: true,
          conditions: {},
          deleteObjectsTransition: { condition: { type: 'Date', date: '2000-01-01T00:00:00.000Z' } },
        },
      ];
      expect((await c.putLifecycle(name, due)).status).toBe(200);
      expect(await t.target.objectExists!(name, 'legal/contract')).toBe(true);
    },
    skipObjects ? { skip: skipObjects } : {},
  );

  t.test(
    "a rule the API cannot take (an unknown condition type, lifecycle's maxAge for maxAgeSeconds): 400 10040, the rules kept",
    async (c) => {
      const name = await c.make();
      expectError(await c.putLocks(name, [{ id: 'x', enabled: true, condition: { type: 'Forever' } }]), 400, 10040);
      expectError(
        await c.putLocks(name, [{ id: 'x', enabled: true, condition: { type: 'Age', maxAge: 60 } }]),
        400,
        10040,
      );
      expect((await c.locks(name)).body.result.rules ?? []).toEqual([]);
    },
    { difference: 'unestablished-rule-refusal' },
  );
});
