/**
 * A real HTTP server around any fetch-style handler (the DNS double's `handle`), for tools that are
 * not JavaScript. Node only. Binds 127.0.0.1 unless told otherwise.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DnsApi } from '../dns/index.js';
import type { DnsApiOptions } from '../dns/index.js';

export type RequestHandler = (request: Request) => Promise<Response>;

export interface RunningServer {
  /** `http://host:port` (no path). */
  origin: string;
  port: number;
  host: string;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (chunks.length) init.body = Buffer.concat(chunks);
  }
  return new Request(new URL(req.url ?? '/', origin), init);
}

async function writeResponse(res: ServerResponse, response: Response, method: string): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  // A HEAD answer describes the body it leaves out (the S3 view's HeadObject): keep its length.
  if (!(method === 'HEAD' && headers['content-length'] !== undefined)) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/** Serves `handler` over HTTP; port 0 picks a free port. */
export function serveHandler(handler: RequestHandler, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? host}`;
    toRequest(req, origin)
      .then(handler)
      .then((response) => writeResponse(res, response, req.method ?? 'GET'))
      .catch((e: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ result: null, success: false, errors: [{ code: 10001, message: String(e) }], messages: [] }));
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        origin: `http://${shown}:${port}`,
        port,
        host,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            server.closeAllConnections?.();
          }),
      });
    });
  });
}

export interface DnsServerOptions extends DnsApiOptions {
  port?: number;
  host?: string;
  /** Serve this double instead of a new one built from the options. */
  api?: DnsApi;
}

/** Starts the DNS double over HTTP. `baseURL` for clients is the origin plus the base path (`/client/v4`). */
export async function startDnsServer(options: DnsServerOptions = {}): Promise<RunningServer & { api: DnsApi; baseURL: string }> {
  const { port, host, api: given, ...apiOptions } = options;
  const api = given ?? new DnsApi(apiOptions);
  const running = await serveHandler((r) => api.handle(r), { port: port ?? 0, host: host ?? '127.0.0.1' });
  return { ...running, api, baseURL: `${running.origin}${api.basePath}` };
}
