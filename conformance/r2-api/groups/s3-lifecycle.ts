/**
 * One rule set, two formats: lifecycle rules written through R2's S3 endpoint
 * (PutBucketLifecycleConfiguration) read back through the REST API's `/lifecycle`, and the reverse
 * (lib/s3/lifecycle.ts maps them; docs r2/api/s3/api, r2/buckets/object-lifecycles:
 * R2's S3 endpoint takes Expiration, Transition to STANDARD_IA and AbortIncompleteMultipartUpload).
 * How each S3 element maps onto the API's JSON, and the S3 answers for what R2 does not take, are the
 * double's choices: declared (differences.ts).
 */
import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';

const xml = (rules: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${rules}</LifecycleConfiguration>`;

export const s3Lifecycle = defineGroup('lifecycle through S3', (t) => {
  const skip = t.target.s3 ? undefined : 'the target has no S3 endpoint (s3)';

  t.test(
    'rules put through S3 are the rules the API reads: Days as seconds, STANDARD_IA as InfrequentAccess, Filter/Prefix as conditions.prefix',
    async (c) => {
      const name = await c.make();
      const put = await c.s3(name, 'lifecycle', {
        method: 'PUT',
        body: xml(
          '<Rule><ID>logs</ID><Status>Enabled</Status><Filter><Prefix>logs/</Prefix></Filter><Expiration><Days>30</Days></Expiration>' +
            '<Transition><Days>7</Days><StorageClass>STANDARD_IA</StorageClass></Transition></Rule>' +
            '<Rule><ID>uploads</ID><Status>Disabled</Status><Filter><Prefix></Prefix></Filter><AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule>',
        ),
      });
      expect(put.status, put.text).toBe(200);
      expect((await c.lifecycle(name)).body.result.rules).toEqual([
        {
          id: 'logs',
          enabled: true,
          conditions: { prefix: 'logs/' },
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 30 * 86400 } },
          storageClassTransitions: [
            { condition: { type: 'Age', maxAge: 7 * 86400 }, storageClass: 'InfrequentAccess' },
          ],
        },
        {
          id: 'uploads',
          enabled: false,
          conditions: { prefix: '' },
          abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 2 * 86400 } },
        },
      ]);
    },
    skip ? { skip } : { difference: 'unestablished-s3-lifecycle-xml' },
  );

  t.test(
    "rules put through the API read back through S3; an empty set is S3's 404 NoSuchLifecycleConfiguration",
    async (c) => {
      const name = await c.make();
      const fresh = await c.s3(name, 'lifecycle');
      expect(fresh.status, fresh.text).toBe(200);
      expect(fresh.text).toContain('<ID>Default Multipart Abort Rule</ID>');
      expect(fresh.text).toContain(
        '<AbortIncompleteMultipartUpload><DaysAfterInitiation>7</DaysAfterInitiation></AbortIncompleteMultipartUpload>',
      );
      await c.putLifecycle(name, [
        {
          id: 'tmp',
          enabled: true,
          conditions: { prefix: 'tmp/' },
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
        },
      ]);
      const got = await c.s3(name, 'lifecycle');
      expect(got.text).toContain(
        '<Rule><ID>tmp</ID><Status>Enabled</Status><Filter><Prefix>tmp/</Prefix></Filter><Expiration><Days>1</Days></Expiration></Rule>',
      );
      await c.putLifecycle(name, []);
      const none = await c.s3(name, 'lifecycle');
      expect([none.status, /<Code>NoSuchLifecycleConfiguration<\/Code>/.test(none.text)]).toEqual([404, true]);
    },
    skip ? { skip } : { difference: 'unestablished-s3-lifecycle-xml' },
  );

  t.test(
    'a transition to a class R2 does not have is InvalidStorageClass, the rules kept',
    async (c) => {
      const name = await c.make();
      const r = await c.s3(name, 'lifecycle', {
        method: 'PUT',
        body: xml(
          '<Rule><ID>x</ID><Status>Enabled</Status><Filter><Prefix></Prefix></Filter><Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition></Rule>',
        ),
      });
      expect([r.status, /<Code>InvalidStorageClass<\/Code>/.test(r.text)]).toEqual([400, true]);
      expect((await c.lifecycle(name)).body.result.rules.map((x: { id: string }) => x.id)).toEqual([
        'Default Multipart Abort Rule',
      ]);
    },
    skip ? { skip } : { difference: 'unestablished-s3-lifecycle-xml' },
  );
});
