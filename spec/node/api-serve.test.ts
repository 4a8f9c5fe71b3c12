/**
 * `edge-doubles api serve` and `startApiServer`: the whole `/client/v4` double over HTTP(S) on
 * loopback, with its account's zones and buckets, and the Host-routed seam for other surfaces.
 */
import { request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApiServer } from '../../lib/node/index.js';
import { runCli, type CliIo } from '../../lib/node/commands.js';

async function waitFor(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

/** Runs `edge-doubles <args>` in process until `stop()`; `out` collects its lines. */
function serve(args: string[]) {
  const out: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
  return { out, stop, running: runCli(args, io) };
}

const ACCOUNT = 'c'.repeat(32);

describe('edge-doubles api serve', () => {
  it('prints its base URL and account; serves the buckets and zones it was given; --token limits who may call', async () => {
    const s = serve([
      'api',
      'serve',
      '--port',
      '0',
      '--account',
      ACCOUNT,
      '--bucket',
      'photos',
      '--zone',
      'example.com',
      '--token',
      'secret',
    ]);
    await waitFor(() => s.out.length >= 4);
    const base = /^edge-doubles api: listening on (http:\/\/127\.0\.0\.1:\d+\/client\/v4)$/.exec(s.out[0]!)![1]!;
    expect(s.out.slice(1)).toEqual([
      `account ${ACCOUNT}`,
      expect.stringMatching(/^zone example\.com [0-9a-f]{32}$/),
      'bucket photos',
      `test support: ${new URL(base).origin}/_edge-doubles/`,
      'state: in memory (lost when the server stops; --persist DIR keeps it)',
    ]);
    const list = await fetch(`${base}/accounts/${ACCOUNT}/r2/buckets`, { headers: { authorization: 'Bearer secret' } });
    expect((await list.json()).result.buckets.map((b: { name: string }) => b.name)).toEqual(['photos']);
    const zones = await fetch(`${base}/zones`, { headers: { authorization: 'Bearer secret' } });
    expect((await zones.json()).result.map((z: { name: string }) => z.name)).toEqual(['example.com']);
    const wrong = await fetch(`${base}/accounts/${ACCOUNT}/r2/buckets`, { headers: { authorization: 'Bearer other' } });
    expect([wrong.status, (await wrong.json()).errors[0].code]).toEqual([403, 9109]);
    s.stop();
    expect(await s.running).toBe(0);
  });

  it('without --token accepts any well-formed credential, and says so', async () => {
    const s = serve(['api', 'serve', '--port', '0']);
    await waitFor(() => s.out.length >= 3);
    expect(s.out[2]).toBe('auth: any well-formed credential is accepted');
    const account = /^account ([0-9a-f]{32})$/.exec(s.out[1]!)![1]!;
    const base = /listening on (\S+)/.exec(s.out[0]!)![1]!;
    const made = await fetch(`${base}/accounts/${account}/r2/buckets`, {
      method: 'POST',
      headers: { authorization: 'Bearer x' },
      body: '{"name":"new-one"}',
    });
    expect((await made.json()).result.name).toBe('new-one');
    s.stop();
    expect(await s.running).toBe(0);
  });

  it('refuses bad arguments', async () => {
    const io: CliIo = { out: () => {}, err: () => {}, stopped: () => Promise.resolve() };
    await expect(runCli(['api', 'serve', '--account', 'nothex'], io)).rejects.toThrow(
      'Account: id must be 32 lowercase hex characters',
    );
    await expect(runCli(['api', 'serve', '--bucket', 'Bad_Name'], io)).rejects.toThrow('is invalid');
    await expect(runCli(['api', 'serve', '--email', 'a@b.c'], io)).rejects.toThrow('--email and --key go together');
  });

  it('--tls serves HTTPS with the CA it wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-api-tls-'));
    try {
      const caFile = join(dir, 'ca.pem');
      const s = serve(['api', 'serve', '--port', '0', '--bucket', 'photos', '--tls', '--tls-ca-out', caFile]);
      await waitFor(() => s.out.length >= 3);
      const base = /listening on (\S+)/.exec(s.out[0]!)![1]!;
      expect(base).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
      const account = /^account ([0-9a-f]{32})$/.exec(s.out[2]!)![1]!;
      const body = await new Promise<string>((done, fail) => {
        const req = request(
          `${base}/accounts/${account}/r2/buckets/photos`,
          { ca: readFileSync(caFile), headers: { authorization: 'Bearer t' } },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => done(text));
          },
        );
        req.on('error', fail);
        req.end();
      });
      expect(JSON.parse(body).result.name).toBe('photos');
      s.stop();
      expect(await s.running).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});

describe('startApiServer', () => {
  it('asks the Host routes first (the seam for public bucket hosts); the API answers every other host', async () => {
    const server = await startApiServer({
      hosts: [{ claims: (host) => host.endsWith('.r2.dev'), handle: async () => new Response('public host') }],
    });
    try {
      expect(server.baseURL).toBe(`http://127.0.0.1:${server.port}/client/v4`);
      const { request: httpRequest } = await import('node:http');
      const viaHost = await new Promise<string>((done, fail) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: server.port, path: '/photo.jpg', headers: { host: 'pub-abc.r2.dev' } },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => done(text));
          },
        );
        req.on('error', fail);
        req.end();
      });
      expect(viaHost).toBe('public host');
      const api = await fetch(`${server.baseURL}/accounts/${server.api.account.id}/r2/buckets`, {
        headers: { authorization: 'Bearer t' },
      });
      expect((await api.json()).success).toBe(true);
    } finally {
      await server.close();
    }
  });
});
