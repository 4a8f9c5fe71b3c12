/** The S3 view over real HTTP: startS3Server with the SDK's own Node handler, and the CLI with the aws CLI. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent as HttpsAgent } from 'node:https';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AwsClient } from 'aws4fetch';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { startS3Server } from 'edge-doubles/node';
import { runCli, type CliIo } from '../../lib/node/commands.js';
import { parseResponses, rawConnection, rawRequest } from '../node/raw-http.js';
import { CREDENTIALS, sdk } from './support.js';
import { debianCommand } from '../helpers/debian-command.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('startS3Server: the S3 view over HTTP on 127.0.0.1', () => {
  let server: Awaited<ReturnType<typeof startS3Server>>;
  const photos = new Bucket();

  beforeAll(async () => {
    server = await startS3Server({ buckets: { photos }, credentials: [CREDENTIALS] });
  });
  afterAll(() => server.close());

  it('binds loopback on an ephemeral port', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.endpoint).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('the SDK with its default Node HTTP handler: put, head (with the length), get, list', async () => {
    const client = sdk(undefined, server.endpoint);
    const put = await client.send(
      new PutObjectCommand({ Bucket: 'photos', Key: 'net/one.txt', Body: 'over the wire', ContentType: 'text/plain' }),
    );
    expect(put.ETag).toBe((await photos.head('net/one.txt'))!.httpEtag);
    const head = await client.send(new HeadObjectCommand({ Bucket: 'photos', Key: 'net/one.txt' }));
    expect(head.ContentLength).toBe(13);
    const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'net/one.txt' }));
    expect(await got.Body!.transformToString()).toBe('over the wire');
    const list = await client.send(new ListObjectsV2Command({ Bucket: 'photos', Prefix: 'net/' }));
    expect(list.Contents!.map((c) => c.Key)).toEqual(['net/one.txt']);
  });

  it("lib-storage over HTTP (with the SDK's Expect: 100-continue removed, as on R2), and a presigned PUT by the global fetch", async () => {
    const client = sdk(undefined, server.endpoint);
    // R2 never sends 100 Continue, so the SDK would wait its 6 s per part: Cloudflare's advice is to drop the header.
    client.middlewareStack.remove('addExpectContinueMiddleware');
    const body = new Uint8Array(11 * 1024 * 1024).fill(42);
    await new Upload({ client, params: { Bucket: 'photos', Key: 'net/big', Body: body } }).done();
    expect((await photos.head('net/big'))!.size).toBe(body.length);
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: 'photos', Key: 'net/presigned' }), {
      expiresIn: 60,
    });
    const res = await fetch(url, { method: 'PUT', body: 'browser upload' });
    expect(res.status).toBe(200);
    expect(await (await photos.get('net/presigned'))!.text()).toBe('browser upload');
  });

  it('a key with dot segments is the key the client named: PUT tmp/../keep/1.txt leaves keep/1.txt alone (needs the S3 view to route by the raw target)', async () => {
    const client = sdk(undefined, server.endpoint);
    await photos.put('keep/1.txt', 'original');
    for (const key of ['tmp/../keep/1.txt', 'tmp/./keep/1.txt']) {
      await client.send(new PutObjectCommand({ Bucket: 'photos', Key: key, Body: 'dotted' }));
      expect(await (await photos.get(key))?.text()).toBe('dotted');
      const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: key }));
      expect(await got.Body!.transformToString()).toBe('dotted');
    }
    expect(await (await photos.get('keep/1.txt'))!.text()).toBe('original');
  });

  it('Expect: 100-continue on an unsigned PUT gets its refusal, not an interim 100: the body is never sent', async () => {
    const c = rawConnection(server.port);
    await c.write(
      `PUT /photos/e HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nExpect: 100-continue\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n`,
    );
    const text = await c.read();
    expect(text).not.toMatch(/^HTTP\/1\.1 100/);
    const [res] = parseResponses(text);
    expect(res!.status).toBe(400);
    expect(res!.body).toContain('<Code>InvalidArgument</Code>');
    expect(c.closed).toBe(true);
  });

  it.each([
    ['send', true],
    ['silent', false],
  ] as const)(
    'curl with Expect: 100-continue against expectContinue %s: an interim 100 (%s) before the body, then 200',
    async (expectContinue, sent) => {
      const own = await startS3Server({ buckets: { photos }, credentials: [CREDENTIALS], expectContinue });
      const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-curl-'));
      try {
        const file = join(dir, 'body.txt');
        writeFileSync(file, 'sent after the 100');
        const { stdout, stderr } = await run('curl', [
          '-sS',
          '-v',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          '-H',
          'Expect: 100-continue',
          '--expect100-timeout',
          '5',
          '-H',
          'x-amz-content-sha256: UNSIGNED-PAYLOAD', // curl 7.88 does not send it itself; R2 requires it
          '--aws-sigv4',
          'aws:amz:auto:s3',
          '--user',
          `${CREDENTIALS.accessKeyId}:${CREDENTIALS.secretAccessKey}`,
          '-T',
          file,
          `${own.endpoint}/photos/curl-${expectContinue}.txt`,
        ]);
        expect(stdout).toBe('200');
        // curl -v shows the interim answer as a received line; without it curl waits (5 s here) and sends anyway.
        expect(/^< HTTP\/1\.1 100 Continue/m.test(stderr)).toBe(sent);
        expect(await (await photos.get(`curl-${expectContinue}.txt`))!.text()).toBe('sent after the 100');
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await own.close();
      }
    },
    20_000,
  );

  it.each([
    ['[', 'an unclosed bracket'],
    ['a b', 'a space'],
    ['', 'nothing'],
  ])('a Host of %j (%s) gets a 400 in S3 XML, not a 500 in DNS JSON', async (host) => {
    const [res] = await rawRequest(server.port, `GET /photos/x HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(res!.status).toBe(400);
    expect(res!.headers['content-type']).toBe('application/xml');
    expect(res!.body).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<Error><Code>InvalidArgument<\/Code><Message>Bad request: [^<]+<\/Message><\/Error>$/,
    );
  });

  /** A signed PUT's head for a raw socket, its body to follow with `Transfer-Encoding: chunked`. */
  async function chunkedPutHead(port: number, key: string, extra: Record<string, string> = {}): Promise<string> {
    const headers = { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', 'transfer-encoding': 'chunked', ...extra };
    const signed = await new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' }).sign(
      `http://127.0.0.1:${port}/photos/${key}`,
      { method: 'PUT', headers },
    );
    let head = `PUT /photos/${key} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`;
    signed.headers.forEach((v, k) => (head += `${k}: ${v}\r\n`));
    return `${head}\r\n`;
  }

  it('a chunked body with a chunk size that is not hex (zz) is refused at once: 400, connection closed, nothing stored, the handler released (issue 26)', async () => {
    // The handler is wrapped to see that it settles: the body it was reading ends in error.
    const api = new S3Api({ buckets: { photos }, credentials: [CREDENTIALS] });
    const settled: string[] = [];
    const watched = {
      handle: (r: Request, t?: string) => api.handle(r, t).finally(() => settled.push(t ?? '')),
    } as unknown as S3Api;
    const own = await startS3Server({ api: watched });
    try {
      const c = rawConnection(own.port);
      // A good first chunk, so the handler is already reading the body when the bad size arrives.
      await c.write(`${await chunkedPutHead(own.port, 'broken-chunk')}5\r\nhello\r\n`);
      await new Promise((r) => setTimeout(r, 50));
      await c.write('zz\r\nworld\r\n0\r\n\r\n');
      const text = await c.read(1000);
      const [res] = parseResponses(text);
      expect(res!.status).toBe(400);
      expect(res!.headers['connection']).toBe('close');
      expect(res!.body).toContain('<Code>InvalidArgument</Code>');
      expect(c.closed).toBe(true);
      for (let i = 0; i < 50 && !settled.length; i++) await new Promise((r) => setTimeout(r, 10));
      expect(settled).toEqual(['/photos/broken-chunk']);
      expect(await photos.head('broken-chunk')).toBeNull();
      // The same framing with good sizes is stored: the refusal is the bad size's alone.
      const good = rawConnection(own.port);
      await good.write(`${await chunkedPutHead(own.port, 'good-chunk')}5\r\nhello\r\n0\r\n\r\n`);
      expect(parseResponses(await good.read())[0]!.status).toBe(200);
      good.close();
      expect(await (await photos.get('good-chunk'))!.text()).toBe('hello');
    } finally {
      await own.close();
    }
  });

  it('an aws-chunked body whose inner chunk size is not hex is refused with 400 and nothing stored', async () => {
    const inner = 'zz\r\nhello\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n';
    const head = await chunkedPutHead(server.port, 'broken-aws-chunk', {
      'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      'content-encoding': 'aws-chunked',
      'x-amz-decoded-content-length': '5',
      'x-amz-trailer': 'x-amz-checksum-crc32',
    });
    const c = rawConnection(server.port);
    await c.write(`${head}${Buffer.byteLength(inner).toString(16)}\r\n${inner}\r\n0\r\n\r\n`);
    const [res] = parseResponses(await c.read());
    c.close();
    expect(res!.status).toBe(400);
    expect(await photos.head('broken-aws-chunk')).toBeNull();
  });

  it('a surface that throws is answered with S3 XML InternalError', async () => {
    const broken = await startS3Server({
      api: { handle: () => Promise.reject(new Error('boom')), buckets: [] } as unknown as S3Api,
    });
    try {
      const [res] = await rawRequest(broken.port, 'GET /photos/x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
      expect(res!.status).toBe(500);
      expect(res!.body).toContain('<Code>InternalError</Code>');
    } finally {
      await broken.close();
    }
  });
});

const aws = debianCommand('aws', 'awscli');

/** `r2 serve --port 0 --bucket photos` plus `args`, run in process until `stop()`; its printed lines and endpoint. */
async function serveInProcess(args: string[]) {
  const out: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
  const running = runCli(['r2', 'serve', '--port', '0', '--bucket', 'photos', ...args], io);
  for (let i = 0; i < 500 && out.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
  const endpoint = /listening on (\S+)/.exec(out[0] ?? '')?.[1] ?? '';
  return { endpoint, out, stop, running };
}

describe('the CLI: edge-doubles r2 serve (run from lib/node/cli.ts through tsx)', () => {
  let child: ChildProcess | undefined;
  let home: string | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    child = undefined;
    if (home) rmSync(home, { recursive: true, force: true });
    home = undefined;
  });

  async function serve(): Promise<string> {
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'lib/node/cli.ts',
        'r2',
        'serve',
        '--port',
        '0',
        '--bucket',
        'photos',
        '--bucket',
        'more',
        '--access-key-id',
        CREDENTIALS.accessKeyId,
        '--secret-access-key',
        CREDENTIALS.secretAccessKey,
        '--cors-origin',
        'https://app.example',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines = createInterface({ input: child.stdout! });
    const seen: string[] = [];
    for await (const line of lines) {
      seen.push(line);
      if (line === 'bucket more') break;
    }
    expect(seen[0]).toMatch(/^edge-doubles r2: listening on http:\/\/127\.0\.0\.1:\d+$/);
    return /listening on (\S+)/.exec(seen[0]!)![1]!;
  }

  it('serves its buckets to the SDK (and browsers on --cors-origin) until SIGTERM', async () => {
    const endpoint = await serve();
    const client = sdk(undefined, endpoint);
    await client.send(new PutObjectCommand({ Bucket: 'more', Key: 'k', Body: 'v' }));
    const got = await client.send(new GetObjectCommand({ Bucket: 'more', Key: 'k' }));
    expect(await got.Body!.transformToString()).toBe('v');
    const preflight = await fetch(`${endpoint}/more/k`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([
      200,
      'https://app.example',
    ]);
    const wrong = sdk(undefined, endpoint, { ...CREDENTIALS, secretAccessKey: 'x' });
    await expect(wrong.send(new GetObjectCommand({ Bucket: 'more', Key: 'k' }))).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
    child!.kill('SIGTERM');
    const [code] = await once(child!, 'exit');
    expect(code).toBe(0);
  }, 30_000);

  it.skipIf(!aws)(
    'the aws CLI (Debian package awscli): cp up and down, ls, head-object, rm (skipped where the awscli package is not installed)',
    async () => {
      const endpoint = await serve();
      home = mkdtempSync(join(tmpdir(), 'edge-doubles-aws-'));
      writeFileSync(join(home, 'config'), '[default]\nregion = auto\ns3 =\n  addressing_style = path\n');
      writeFileSync(
        join(home, 'credentials'),
        `[default]\naws_access_key_id = ${CREDENTIALS.accessKeyId}\naws_secret_access_key = ${CREDENTIALS.secretAccessKey}\n`,
      );
      writeFileSync(join(home, 'hello.txt'), 'hello from the aws CLI\n');
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        AWS_CONFIG_FILE: join(home, 'config'),
        AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
        AWS_ENDPOINT_URL: endpoint,
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_PAGER: '',
      };
      const cli = (...args: string[]) => run(aws!, ['--endpoint-url', endpoint, ...args], { env, cwd: home });
      await cli('s3', 'cp', join(home, 'hello.txt'), 's3://photos/docs/hello.txt');
      const ls = await cli('s3', 'ls', 's3://photos/docs/');
      expect(ls.stdout).toMatch(/\s23 hello\.txt/);
      const head = JSON.parse(
        (await cli('s3api', 'head-object', '--bucket', 'photos', '--key', 'docs/hello.txt')).stdout,
      );
      expect(head.ContentLength).toBe(23);
      await cli('s3', 'cp', 's3://photos/docs/hello.txt', join(home, 'back.txt'));
      expect(readFileSync(join(home, 'back.txt'), 'utf8')).toBe('hello from the aws CLI\n');
      await cli('s3', 'rm', 's3://photos/docs/hello.txt');
      expect((await cli('s3', 'ls', 's3://photos/docs/').catch((e: { stdout: string }) => e)).stdout).toBe('');
    },
    60_000,
  );

  it.skipIf(!aws)(
    'the aws CLI over --tls: cp up (Expect: 100-continue, answered by an interim 100) and down (skipped where the awscli package is not installed)',
    async () => {
      home = mkdtempSync(join(tmpdir(), 'edge-doubles-aws-tls-'));
      const caFile = join(home, 'ca.pem');
      const { endpoint, stop, running } = await serveInProcess([
        '--tls',
        '--tls-ca-out',
        caFile,
        '--credential',
        `${CREDENTIALS.accessKeyId}:${CREDENTIALS.secretAccessKey}`,
      ]);
      writeFileSync(join(home, 'config'), '[default]\nregion = auto\ns3 =\n  addressing_style = path\n');
      writeFileSync(
        join(home, 'credentials'),
        `[default]\naws_access_key_id = ${CREDENTIALS.accessKeyId}\naws_secret_access_key = ${CREDENTIALS.secretAccessKey}\n`,
      );
      writeFileSync(join(home, 'hello.txt'), 'hello over TLS\n');
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        AWS_CONFIG_FILE: join(home, 'config'),
        AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_PAGER: '',
      };
      // A hang (botocore waiting on its 100-continue) fails here instead of stalling the suite.
      const cli = (...args: string[]) =>
        run(aws!, ['--endpoint-url', endpoint, '--ca-bundle', caFile, ...args], { env, cwd: home, timeout: 20_000 });
      try {
        await cli('s3', 'cp', join(home, 'hello.txt'), 's3://photos/tls/hello.txt');
        await cli('s3', 'cp', 's3://photos/tls/hello.txt', join(home, 'back.txt'));
        expect(readFileSync(join(home, 'back.txt'), 'utf8')).toBe('hello over TLS\n');
      } finally {
        stop();
        await running;
      }
    },
    60_000,
  );

  it('in-process: several key pairs (--credential and paired flags) over --tls, the CA written where --tls-ca-out says', async () => {
    home = mkdtempSync(join(tmpdir(), 'edge-doubles-tls-'));
    const caFile = join(home, 'ca.pem');
    const second = { accessKeyId: 'second-key-id', secretAccessKey: 'second:secret:with:colons' };
    const { endpoint, out, stop, running } = await serveInProcess([
      '--tls',
      '--tls-ca-out',
      caFile,
      '--access-key-id',
      CREDENTIALS.accessKeyId,
      '--secret-access-key',
      CREDENTIALS.secretAccessKey,
      '--credential',
      `${second.accessKeyId}:${second.secretAccessKey}`,
    ]);
    expect(out[0]).toMatch(/^edge-doubles r2: listening on https:\/\/127\.0\.0\.1:\d+$/);
    expect(out[1]).toBe(`tls: CA certificate in ${caFile}`);
    const ca = readFileSync(caFile, 'utf8');
    const client = (credentials: typeof CREDENTIALS) =>
      new S3Client({
        region: 'auto',
        endpoint,
        forcePathStyle: true,
        credentials,
        requestHandler: new NodeHttpHandler({ httpsAgent: new HttpsAgent({ ca }) }),
      });
    await client(CREDENTIALS).send(new PutObjectCommand({ Bucket: 'photos', Key: 'k', Body: 'first pair' }));
    const got = await client(second).send(new GetObjectCommand({ Bucket: 'photos', Key: 'k' }));
    expect(await got.Body!.transformToString()).toBe('first pair');
    await expect(
      client({ ...second, secretAccessKey: 'wrong' }).send(new GetObjectCommand({ Bucket: 'photos', Key: 'k' })),
    ).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
    stop();
    expect(await running).toBe(0);
  }, 20_000);

  it('reports usage and bad arguments', async () => {
    const out: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => Promise.resolve() };
    expect(await runCli(['r2', 'serve', '--help'], io)).toBe(0);
    expect(out.join('\n')).toContain('edge-doubles r2 serve');
    await expect(runCli(['r2', 'serve', '--bucket', 'a', '--access-key-id', 'x'], io)).rejects.toThrow(
      '--access-key-id and --secret-access-key go together',
    );
    await expect(runCli(['r2', 'serve'], io)).rejects.toThrow('at least one --bucket is needed');
    await expect(runCli(['r2', 'serve', '--bucket', 'a', '--credential', 'no-colon'], io)).rejects.toThrow(
      '--credential must be ID:SECRET',
    );
    await expect(runCli(['r2', 'serve', '--bucket', 'a', '--tls-ca-out', 'x.pem'], io)).rejects.toThrow(
      '--tls-ca-out needs --tls',
    );
    await expect(runCli(['r2', 'serve', '--bucket', 'a', '--tls-cert', 'c.pem'], io)).rejects.toThrow(
      '--tls-cert and --tls-key go together',
    );
  });
});
