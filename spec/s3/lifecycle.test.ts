/**
 * The S3 view's bucket lifecycle (lib/s3/lifecycle.ts) through the AWS SDK, over the same rules the
 * REST API and the bucket hold, and bucket locks (lib/bucket/locks.ts) as the S3 view answers them:
 * 403 ObjectLockedByBucketPolicy.
 */
import { describe, expect, it } from 'vitest';
import {
  DeleteBucketLifecycleCommand,
  DeleteObjectCommand,
  GetBucketLifecycleConfigurationCommand,
  HeadObjectCommand,
  PutBucketLifecycleConfigurationCommand,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { lockRules } from '../../lib/bucket/locks.js';
import { ManualClock } from '../../lib/clock.js';
import { CREDENTIALS, ENDPOINT, errorOf, sdk } from './support.js';

const DAY = 86_400_000;

function setup() {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const photos = new Bucket({ clock });
  // The S3 view keeps real time (clients sign with it); the bucket's rules follow the bucket's clock.
  const api = new S3Api({ buckets: { photos }, credentials: [CREDENTIALS] });
  return { clock, photos, api, client: sdk(api.fetch), config: bucketLayer(photos)!.config };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as S3ServiceException,
  );

describe('bucket lifecycle through the AWS SDK', () => {
  it('a new bucket reads back the default rule as AbortIncompleteMultipartUpload after 7 days', async () => {
    const { client } = setup();
    const got = await client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'photos' }));
    expect(got.Rules).toEqual([
      {
        ID: 'Default Multipart Abort Rule',
        Status: 'Enabled',
        Filter: { Prefix: '' },
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
      },
    ]);
  });

  it('Put maps onto the API rules (Days × 86400, STANDARD_IA → InfrequentAccess), which act on the clock', async () => {
    const { clock, photos, client, config } = setup();
    await client.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: 'photos',
        LifecycleConfiguration: {
          Rules: [
            { ID: 'logs', Status: 'Enabled', Filter: { Prefix: 'logs/' }, Expiration: { Days: 2 } },
            {
              ID: 'cold',
              Status: 'Enabled',
              Filter: { Prefix: 'cold/' },
              Transitions: [{ Days: 1, StorageClass: 'STANDARD_IA' }],
            },
            {
              ID: 'until',
              Status: 'Disabled',
              Filter: { Prefix: '' },
              Expiration: { Date: new Date('2031-01-01T00:00:00Z') },
            },
          ],
        },
      }),
    );
    expect(JSON.parse(JSON.stringify(config.lifecycle))).toEqual([
      {
        id: 'logs',
        enabled: true,
        conditions: { prefix: 'logs/' },
        deleteObjectsTransition: { condition: { type: 'Age', maxAge: 172800 } },
      },
      {
        id: 'cold',
        enabled: true,
        conditions: { prefix: 'cold/' },
        storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
      },
      {
        id: 'until',
        enabled: false,
        conditions: { prefix: '' },
        deleteObjectsTransition: { condition: { type: 'Date', date: '2031-01-01T00:00:00.000Z' } },
      },
    ]);
    const got = await client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'photos' }));
    expect(
      got.Rules!.map((r) => [r.ID, r.Status, r.Filter?.Prefix, r.Expiration?.Days, r.Transitions?.[0]?.StorageClass]),
    ).toEqual([
      ['logs', 'Enabled', 'logs/', 2, undefined],
      ['cold', 'Enabled', 'cold/', undefined, 'STANDARD_IA'],
      ['until', 'Disabled', '', undefined, undefined],
    ]);
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'logs/a', Body: 'a' }));
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'cold/b', Body: 'b' }));
    clock.advance(DAY);
    // Whether R2's HeadObject sends x-amz-storage-class is not established
    // (docs/sources/r2-s3.md#object-headers); the binding shows the move.
    expect((await photos.head('cold/b'))!.storageClass).toBe('InfrequentAccess');
    expect((await client.send(new HeadObjectCommand({ Bucket: 'photos', Key: 'cold/b' }))).ContentLength).toBe(1);
    clock.advance(DAY);
    expect(await photos.head('logs/a')).toBeNull();
  });

  it('Delete clears the rules: Get is then NoSuchLifecycleConfiguration', async () => {
    const { client, config } = setup();
    await client.send(new DeleteBucketLifecycleCommand({ Bucket: 'photos' }));
    expect(config.lifecycle).toEqual([]);
    const e = await failure(client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'photos' })));
    expect([e?.name, e?.$metadata.httpStatusCode]).toEqual(['NoSuchLifecycleConfiguration', 404]);
  });

  it.each([
    ['no rule', '<LifecycleConfiguration></LifecycleConfiguration>', 'MalformedXML'],
    [
      'a tag filter',
      '<LifecycleConfiguration><Rule><ID>a</ID><Status>Enabled</Status><Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>',
      'MalformedXML',
    ],
    [
      'a bad status',
      '<LifecycleConfiguration><Rule><ID>a</ID><Status>On</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>',
      'MalformedXML',
    ],
    [
      'zero days',
      '<LifecycleConfiguration><Rule><ID>a</ID><Status>Enabled</Status><Expiration><Days>0</Days></Expiration></Rule></LifecycleConfiguration>',
      'MalformedXML',
    ],
    [
      'GLACIER',
      '<LifecycleConfiguration><Rule><ID>a</ID><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition></Rule></LifecycleConfiguration>',
      'InvalidStorageClass',
    ],
  ])('refuses %s (and keeps the rules)', async (_, body, code) => {
    const { api, config } = setup();
    const before = config.lifecycle;
    const { AwsClient } = await import('aws4fetch');
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const req = await signer.sign(`${ENDPOINT}/photos?lifecycle`, { method: 'PUT', body });
    const res = await api.fetch(req);
    expect((await errorOf(res)).code).toBe(code);
    expect(config.lifecycle).toBe(before);
  });
});

describe('bucket locks through the S3 view', () => {
  it('DeleteObject and an overwriting PutObject of a locked object: 403 ObjectLockedByBucketPolicy; allowed once the lock ends', async () => {
    const { clock, client, config, photos } = setup();
    config.locks = lockRules([{ id: 'hold', enabled: true, condition: { type: 'Age', maxAgeSeconds: 86400 } }]);
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'k', Body: 'v1' }));
    for (const command of [
      new DeleteObjectCommand({ Bucket: 'photos', Key: 'k' }),
      new PutObjectCommand({ Bucket: 'photos', Key: 'k', Body: 'v2' }),
    ]) {
      const e = await failure(client.send(command as never));
      expect([e?.name, e?.$metadata.httpStatusCode]).toEqual(['ObjectLockedByBucketPolicy', 403]);
    }
    expect(await (await photos.get('k'))!.text()).toBe('v1');
    clock.advance(DAY);
    await client.send(new DeleteObjectCommand({ Bucket: 'photos', Key: 'k' }));
    expect(await photos.head('k')).toBeNull();
  });
});
