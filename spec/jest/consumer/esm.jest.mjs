// Jest's ESM mode (node --experimental-vm-modules): `import` takes the package's ESM build.
import { expect, test } from '@jest/globals';
import { Bucket, DnsApi } from 'edge-doubles';

test('a put is read back', async () => {
  const bucket = new Bucket();
  await bucket.put('notes/a.txt', 'hello');
  const object = await bucket.get('notes/a.txt');
  expect(await object.text()).toBe('hello');
  expect(object.etag).toBe('5d41402abc4b2a76b9719d911017c592'); // md5 of "hello", as R2's etag
});

test('the DNS double answers fetch', async () => {
  const api = new DnsApi({
    zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '198.51.100.4' }] }],
  });
  const zoneId = api.zone('example.com').id;
  const listed = await (
    await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records?type=A`, {
      headers: { Authorization: 'Bearer test-token' },
    })
  ).json();
  expect(listed.result.map((r) => r.name)).toEqual(['www.example.com']);
});

test('R2 errors reject as R2 rejects', async () => {
  const bucket = new Bucket();
  await expect(bucket.resumeMultipartUpload('big.bin', 'no-such-upload').uploadPart(1, 'x')).rejects.toThrow('(10024)');
});
