// Plain JavaScript under Jest's default (CommonJS) mode.
const { AssertionError, assertObject, Bucket } = require('edge-doubles');

test('a put is read back', async () => {
  const bucket = new Bucket();
  await bucket.put('notes/a.txt', 'hello', { httpMetadata: { contentType: 'text/plain' } });

  const object = await bucket.get('notes/a.txt');
  expect(await object.text()).toBe('hello');
  expect(object.httpMetadata.contentType).toBe('text/plain');
  expect(object.etag).toBe('5d41402abc4b2a76b9719d911017c592'); // md5 of "hello", as R2's etag
});

test('R2 errors and the plain assertions throw what they do under any runner', async () => {
  const bucket = new Bucket({ seed: { 'a.txt': 'hello' } });
  await expect(bucket.resumeMultipartUpload('big.bin', 'no-such-upload').uploadPart(1, 'x')).rejects.toThrow('(10024)');

  let thrown;
  try {
    assertObject(bucket, 'a.txt', { body: 'bye' });
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(AssertionError);
  expect(thrown.code).toBe('ERR_ASSERTION'); // as node:assert's
  expect(thrown.actual).toEqual({ body: 'hello' });
});
