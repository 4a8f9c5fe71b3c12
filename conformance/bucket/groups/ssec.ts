import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import { expectRejection, fromHex, rejection } from '../util.js';

// SSE-C keys (docs/sources/r2-binding.md#sse-c). The key format is checked by workerd's client code,
// so it is production behaviour. Enforcement (a key is needed to read an object written with one;
// ssecKeyMd5 is set) is production-only: the simulator ignores SSE-C ('simulator-ssec-ignored').
// The exact production error for a missing or wrong key is not established by any source found, so
// those tests assert only that the read rejects.

const KEY_A = '0123456789abcdef'.repeat(4); // 64 lowercase hex characters = 32 bytes
const KEY_B = 'fedcba9876543210'.repeat(4);
const INVALID_FORMAT = 'SSE-C Key has invalid format';
const WRONG_LENGTH = 'SSE-C Key must be 32 bytes in length';

export const ssec = defineGroup('SSE-C', (t) => {
  t.test(
    'put with an uppercase hex key rejects with Error "SSE-C Key has invalid format" and stores nothing',
    async () => {
      const b = await t.bucket();
      await expectRejection(() => b.put('k', 'v', { ssecKey: KEY_A.toUpperCase() }), Error, INVALID_FORMAT);
      expect(await b.head('k')).toBeNull();
    },
  );

  t.test('get with an uppercase hex key rejects with Error "SSE-C Key has invalid format"', async () => {
    const b = await t.bucket();
    await b.put('k', 'v');
    await expectRejection(() => b.get('k', { ssecKey: KEY_A.toUpperCase() }), Error, INVALID_FORMAT);
  });

  t.test('a key with non-hex characters rejects with "SSE-C Key has invalid format"', async () => {
    const b = await t.bucket();
    await expectRejection(() => b.put('k', 'v', { ssecKey: 'z'.repeat(64) }), Error, INVALID_FORMAT);
    await expectRejection(() => b.put('k', 'v', { ssecKey: KEY_A.slice(0, 63) + 'G' }), Error, INVALID_FORMAT);
  });

  t.test('the format is checked before the length: a short uppercase key gives "invalid format"', async () => {
    const b = await t.bucket();
    await expectRejection(() => b.put('k', 'v', { ssecKey: 'ABC' }), Error, INVALID_FORMAT);
  });

  t.test(
    'a lowercase hex key of the wrong length rejects with "SSE-C Key must be 32 bytes in length" (put and get)',
    async () => {
      const b = await t.bucket();
      await expectRejection(() => b.put('k', 'v', { ssecKey: KEY_A.slice(0, 62) }), Error, WRONG_LENGTH);
      await expectRejection(() => b.put('k', 'v', { ssecKey: KEY_A + 'ab' }), Error, WRONG_LENGTH);
      await expectRejection(() => b.get('k', { ssecKey: 'abc' }), Error, WRONG_LENGTH);
      expect(await b.head('k')).toBeNull();
    },
  );

  t.test(
    'a key buffer that is not 32 bytes rejects with "SSE-C Key must be 32 bytes in length" (put and get)',
    async () => {
      const b = await t.bucket();
      await expectRejection(() => b.put('k', 'v', { ssecKey: new ArrayBuffer(31) }), Error, WRONG_LENGTH);
      await expectRejection(() => b.put('k', 'v', { ssecKey: new ArrayBuffer(33) }), Error, WRONG_LENGTH);
      await expectRejection(() => b.get('k', { ssecKey: new ArrayBuffer(16) }), Error, WRONG_LENGTH);
    },
  );

  t.test('an empty string key rejects with "SSE-C Key has invalid format"', async () => {
    const b = await t.bucket();
    await expectRejection(() => b.put('k', 'v', { ssecKey: '' }), Error, INVALID_FORMAT);
  });

  t.test(
    'a non-string, non-buffer key is converted to a string first: null → "null" (invalid format), 5 → "5" (wrong length)',
    async () => {
      const b = await t.bucket();
      await expectRejection(() => b.put('k', 'v', { ssecKey: null as unknown as string }), Error, INVALID_FORMAT);
      await expectRejection(() => b.put('k', 'v', { ssecKey: {} as unknown as string }), Error, INVALID_FORMAT);
      await expectRejection(() => b.put('k', 'v', { ssecKey: 5 as unknown as string }), Error, WRONG_LENGTH);
      expect(await b.head('k')).toBeNull();
    },
  );

  t.test('a typed array or DataView key must also be 32 bytes', async () => {
    const b = await t.bucket();
    await expectRejection(
      () => b.put('k', 'v', { ssecKey: new Uint8Array(31) as unknown as ArrayBuffer }),
      Error,
      WRONG_LENGTH,
    );
    await b.put('u8', 'v', { ssecKey: new Uint8Array(32) as unknown as ArrayBuffer });
    await b.put('dv', 'v', { ssecKey: new DataView(new ArrayBuffer(32)) as unknown as ArrayBuffer });
    expect((await b.list()).objects.map((o) => o.key)).toEqual(['dv', 'u8']);
  });

  t.test('ssecKey: undefined counts as absent', async () => {
    const b = await t.bucket();
    const put = await b.put('k', 'v', { ssecKey: undefined });
    expect(put!.ssecKeyMd5).toBeUndefined();
    expect(await (await b.get('k', { ssecKey: undefined }))?.text()).toBe('v');
  });

  t.test(
    'the key format is checked on the client: get of a missing key with a bad ssecKey rejects instead of null',
    async () => {
      const b = await t.bucket();
      await expectRejection(() => b.get('missing', { ssecKey: KEY_A.toUpperCase() }), Error, INVALID_FORMAT);
    },
  );

  t.test('createMultipartUpload with a bad ssecKey rejects with the same format errors', async () => {
    const b = await t.bucket();
    await expectRejection(() => b.createMultipartUpload('k', { ssecKey: KEY_A.toUpperCase() }), Error, INVALID_FORMAT);
    await expectRejection(() => b.createMultipartUpload('k', { ssecKey: 'ab' }), Error, WRONG_LENGTH);
  });

  t.test('an object written with a 64-hex-character key is read back with the same key', async () => {
    const b = await t.bucket();
    const put = await b.put('k', 'secret content', { ssecKey: KEY_A });
    expect(put!.size).toBe(14);
    const got = await b.get('k', { ssecKey: KEY_A });
    expect(await got?.text()).toBe('secret content');
  });

  t.test('an object written with a 32-byte ArrayBuffer key is read back with the same key', async () => {
    const b = await t.bucket();
    const key = new Uint8Array(32).map((_, i) => i * 7).buffer;
    await b.put('k', 'buffer-keyed', { ssecKey: key });
    expect(await (await b.get('k', { ssecKey: key }))?.text()).toBe('buffer-keyed');
  });

  t.test(
    'an object written with an SSE-C key has ssecKeyMd5 set on the put result and on a get with the key',
    async () => {
      const b = await t.bucket();
      const put = await b.put('k', 'v', { ssecKey: KEY_A });
      expect(typeof put!.ssecKeyMd5).toBe('string');
      expect(put!.ssecKeyMd5!.length).toBeGreaterThan(0);
      expect((await b.get('k', { ssecKey: KEY_A }))?.ssecKeyMd5).toBe(put!.ssecKeyMd5);
    },
    { difference: 'simulator-ssec-ignored' },
  );

  t.test(
    "ssecKeyMd5 is the base64 of the key's binary MD5, for a hex key and the same key as bytes, on put, head, get and complete",
    async () => {
      // The key and digest of workerd's own R2 tests (src/workerd/api/tests/r2-test.js: keyMd5).
      const hexKey = 'b9ff919a784c7a48bf2a084056bdb94b69259b7ba59e042ade0d8734579ab5e3';
      const keyMd5 = 'WGR5pEm07DroP3hYRAh8Yw==';
      const b = await t.bucket();
      for (const ssecKey of [hexKey, fromHex(hexKey).buffer]) {
        expect((await b.put('k', 'v', { ssecKey }))!.ssecKeyMd5).toBe(keyMd5);
        expect((await b.head('k'))?.ssecKeyMd5).toBe(keyMd5);
        expect((await b.get('k', { ssecKey }))?.ssecKeyMd5).toBe(keyMd5);
        const upload = await b.createMultipartUpload('m', { ssecKey });
        const done = await upload.complete([await upload.uploadPart(1, 'part', { ssecKey })]);
        expect(done.ssecKeyMd5).toBe(keyMd5);
      }
    },
    { difference: 'simulator-ssec-ignored' },
  );

  t.test(
    'reading an SSE-C object without its key rejects',
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { ssecKey: KEY_A });
      const e = await rejection(() => b.get('k'));
      expect(e).toBeInstanceOf(Error);
    },
    { difference: 'simulator-ssec-ignored' },
  );

  t.test(
    'reading an SSE-C object with another key rejects',
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { ssecKey: KEY_A });
      const e = await rejection(() => b.get('k', { ssecKey: KEY_B }));
      expect(e).toBeInstanceOf(Error);
    },
    { difference: 'simulator-ssec-ignored' },
  );

  t.test('an object written without SSE-C has no ssecKeyMd5', async () => {
    const b = await t.bucket();
    const put = await b.put('k', 'v');
    expect(put!.ssecKeyMd5).toBeUndefined();
    expect((await b.head('k'))?.ssecKeyMd5).toBeUndefined();
  });
});
