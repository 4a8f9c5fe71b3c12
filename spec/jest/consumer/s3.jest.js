// Plain JavaScript under Jest's default (CommonJS) mode: an S3 request whose body is XML. The XML
// parser is loaded on the first such body, which in this mode must be a require (Jest's CommonJS
// runtime has no dynamic import without --experimental-vm-modules).
const { AwsClient } = require('aws4fetch');
const { Bucket, S3Api } = require('edge-doubles');

test('PutBucketCors: the XML body is read and the rules are kept', async () => {
  const api = new S3Api({ buckets: { photos: new Bucket() } });
  const client = new AwsClient({ accessKeyId: 'key', secretAccessKey: 'secret', service: 's3', region: 'auto' });
  const cors =
    '<CORSConfiguration><CORSRule><AllowedOrigin>https://example.com</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>';
  const put = await api.fetch(
    await client.sign('https://s3.example/photos?cors', {
      method: 'PUT',
      body: cors,
      headers: { 'content-type': 'application/xml' },
    }),
  );
  expect(put.status).toBe(200);
  const got = await api.fetch(await client.sign('https://s3.example/photos?cors'));
  expect(await got.text()).toContain('<AllowedOrigin>https://example.com</AllowedOrigin>');
});
