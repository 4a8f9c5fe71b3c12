import { expect } from '../../runner.js';
import { md5 } from '@noble/hashes/legacy.js';
import { defineGroup } from '../harness.js';

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
const KEY = new Uint8Array(32).fill(9);
const ssecHeaders = (alg = 'AES256') => ({
  'x-amz-server-side-encryption-customer-algorithm': alg,
  'x-amz-server-side-encryption-customer-key': b64(KEY),
  'x-amz-server-side-encryption-customer-key-md5': b64(md5(KEY)),
});

// SSE-C (docs/sources/r2-s3.md#sse-c-and-storage-class).
export const ssec = defineGroup('ssec', (t) => {
  t.test(
    'SSE-C headers on a plain object\'s GET are 400 "not applicable"; AES128 is 400 InvalidEncryptionAlgorithmError',
    async (c) => {
      const key = c.key();
      await c.send(key, { method: 'PUT', body: 'plain' });
      const r = await c.send(key, { headers: ssecHeaders() });
      expect([r.status, r.error?.Code, r.error?.Message]).toEqual([
        400,
        'InvalidRequest',
        'The encryption parameters are not applicable to this object.',
      ]);
      const alg = await c.send(key, { headers: ssecHeaders('AES128') });
      expect([alg.status, alg.error?.Code]).toEqual([400, 'InvalidEncryptionAlgorithmError']);
    },
  );

  t.test(
    'an object written with a customer key is read back with it',
    async (c) => {
      const key = c.key();
      const put = await c.send(key, { method: 'PUT', body: 'secret', headers: ssecHeaders() });
      expect(put.status).toBe(200);
      const r = await c.send(key, { headers: ssecHeaders() });
      expect([r.status, r.text]).toEqual([200, 'secret']);
      expect(r.headers.get('x-amz-server-side-encryption-customer-key-md5')).toBe(b64(md5(KEY)));
    },
    { difference: 'miniflare-ssec-writes' },
  );
});
