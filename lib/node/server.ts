/**
 * A real HTTP(S) server around any fetch-style handler (the DNS double's or the S3 view's `handle`),
 * for tools that are not JavaScript. Node only. Binds 127.0.0.1 unless told otherwise.
 *
 * What it guarantees every surface:
 * - the handler gets the request-target exactly as the client sent it (`/a/../b` is not `/b`);
 * - the body is streamed, never buffered here: a handler that refuses before reading costs nothing;
 * - a request it cannot turn into a `Request` (a Host that is not a host) gets the surface's own 400;
 * - bytes after a request that are not a request (NUL padding) do not cancel the answer in flight.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { rawTarget } from '../fetch.js';
import { tlsMaterial, type TlsOption } from './tls.js';

/** `target` is the request-target as received (`IncomingMessage#url`): surfaces take the path from it. */
export type RequestHandler = (request: Request, target: string) => Promise<Response>;

export type { TlsOption } from './tls.js';

export interface ServeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 unless told otherwise. */
  host?: string;
  /** Serve HTTPS: `true` makes a CA and a certificate at start (see `RunningServer.ca`), or give your own PEMs. */
  tls?: TlsOption;
  /** The answer to a request that cannot be built (its Host is not a host) or bytes that are not a request. */
  malformed?: (reason: string) => Response;
  /** The answer when the handler throws. */
  failed?: (error: unknown) => Response;
  /**
   * What a request with `Expect: 100-continue` gets. `'send'` (the default): an interim `100
   * Continue` when the handler starts reading the body, so a client sends it at once, and a request
   * refused before its body is read (bad signature, too large) gets its error instead of the 100.
   * `'silent'`: no interim answer, as at Cloudflare's edge, which never generates a 1xx answer (R2's
   * S3 extensions page: "Cloudflare does not support the HTTP 100 response"): the client sends its
   * body after its own wait (curl and botocore 1 s, the JS SDK 6 s). The default differs from the
   * edge because a test back end should answer as fast as its client can ask (issue 27; declared in
   * conformance/s3/differences.ts as `server-sends-100-continue`).
   */
  expectContinue?: ExpectContinue;
  /**
   * Awaited after the handler answered and before the answer is sent: a `--persist` server commits
   * what the request changed there (lib/node/persist/), so an answered write is never lost. When it
   * fails, the client gets `failed`'s answer instead.
   */
  settle?: () => Promise<void>;
}

/** How a server answers `Expect: 100-continue` (ServeOptions.expectContinue). */
export type ExpectContinue = 'send' | 'silent';

export interface RunningServer {
  /** `http://host:port` or `https://host:port` (no path). */
  origin: string;
  port: number;
  host: string;
  /** With `tls: true`: the PEM of the CA that signed the server's certificate, for clients to trust. */
  ca?: string;
  /** Stops the server; everything it held is lost. */
  close(): Promise<void>;
}

/**
 * After answering a request whose body was not read, up to this much more of it is read and thrown
 * away so the connection can serve the next request; a larger rest closes the connection instead,
 * as servers do rather than receive a body nobody wants (RFC 9112 §9.6; nginx's lingering close).
 */
/**
 * node:http and node:stream, imported by the first server rather than with edge-doubles/node, whose
 * createEnv needs neither (they were a few ms of importing it: docs/benchmarks.md, "A suite's wall time").
 */
let io:
  | {
      createServer: typeof import('node:http').createServer;
      Readable: typeof import('node:stream').Readable;
      pipeline: typeof import('node:stream/promises').pipeline;
    }
  | undefined;

async function loadIo(): Promise<NonNullable<typeof io>> {
  const [http, stream, promises] = await Promise.all([
    import('node:http'),
    import('node:stream'),
    import('node:stream/promises'),
  ]);
  return (io ??= { createServer: http.createServer, Readable: stream.Readable, pipeline: promises.pipeline });
}

const DRAIN_LIMIT = 1024 * 1024;
/**
 * How long a connection closed after an answer to a request whose body was still arriving keeps
 * reading (and throwing away) what the client sends. Closed at once, the connection would be reset
 * by the kernel while the client's bytes keep coming, and a reset can drop the answer before the
 * client reads it: a client streaming an oversized body would see `ECONNRESET`, not the 413. nginx's
 * lingering close, for the same reason (`lingering_time`, `lingering_timeout`).
 */
const LINGER_MS = 2000;

/** A response body whose end is seen within this many bytes is sent with a Content-Length; a longer one is chunked. */
const LENGTH_PEEK = 256 * 1024;

const plainMalformed = (reason: string) =>
  new Response(`Bad Request: ${reason}\n`, { status: 400, headers: { 'content-type': 'text/plain' } });
const plainFailed = (error: unknown) =>
  new Response(`Internal Server Error: ${String(error)}\n`, { status: 500, headers: { 'content-type': 'text/plain' } });

/**
 * RFC 3986's host (an IP literal in brackets, or a reg-name) and an optional port. Anything else in a
 * Host header (`[`, `a b`, `a/b`, `user@h`) is not a host: RFC 9112 §3.2 has the server answer 400.
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{0,5})?$/;

type Built = { request: Request; target: string; bodyUnread: () => number | undefined } | { malformed: string };

/**
 * `body`, calling `first` when it is first read: the interim 100 goes out only once the handler
 * wants the body (after it has authenticated and checked the request), never for a refused one.
 */
function onFirstRead(body: ReadableStream<Uint8Array>, first: () => void): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!reader) {
          first();
          reader = body.getReader();
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => (reader ? reader.cancel(reason) : body.cancel(reason)),
    },
    { highWaterMark: 0 },
  );
}

/**
 * The Request a handler sees, or why there cannot be one. Never throws. `continued`, for a request
 * that waits for a `100 Continue`, sends it (the first read of the body calls it).
 */
function buildRequest(req: IncomingMessage, scheme: string, listening: string, continued?: () => void): Built {
  const given = req.url ?? '/';
  const hosts: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts.push(req.rawHeaders[i + 1]!);
  let url: URL;
  let target = given;
  try {
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(given)) {
      // absolute-form (RFC 9112 §3.2.2): the target's authority wins over Host.
      url = new URL(given);
      target = rawTarget(given)!;
    } else {
      if (!given.startsWith('/')) return { malformed: `request-target is not a path: ${given}` };
      if (hosts.length > 1) return { malformed: 'more than one Host header' };
      let host = hosts[0];
      if (host === undefined) {
        // HTTP/1.0 may leave Host out; HTTP/1.1 must send it (RFC 9112 §3.2).
        if (req.httpVersion !== '1.0') return { malformed: 'missing Host header' };
        host = listening;
      }
      if (host === '') return { malformed: 'empty Host header' };
      if (!HOST.test(host)) return { malformed: `Host header is not a host: ${host}` };
      // Origin and target are joined as text: `new URL(target, origin)` would read `//x/y` as another host.
      url = new URL(`${scheme}://${host}${given}`);
    }
  } catch {
    return {
      malformed: `cannot make a URL of Host ${JSON.stringify(hosts[0] ?? '')} and target ${JSON.stringify(given)}`,
    };
  }

  const headers = new Headers();
  try {
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  } catch {
    return { malformed: 'a header the Fetch API cannot hold' };
  }
  const method = req.method ?? 'GET';
  const declared = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  let received = 0;
  if (hasBody && method !== 'GET' && method !== 'HEAD') {
    // Streamed, not buffered: nothing is read until the handler asks (after it has authenticated).
    const body = io!.Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.body = continued ? onFirstRead(body, continued) : body;
    init.duplex = 'half';
    req.on('data', (chunk: Buffer) => (received += chunk.length));
  }
  let request: Request;
  try {
    request = new Request(url, init);
  } catch (e) {
    return { malformed: String((e as Error)?.message ?? e) };
  }
  // How much of the body has not arrived yet (undefined: unknown, chunked), 0 when it is all in.
  const bodyUnread = () =>
    req.complete
      ? 0
      : declared !== undefined && req.headers['transfer-encoding'] === undefined
        ? Number(declared) - received
        : undefined;
  return { request, target, bodyUnread };
}

/**
 * When Node closes `socket` after the answer (it calls `destroySoon`), send the end of the stream
 * but keep reading until the client closes its side or LINGER_MS pass, then close (LINGER_MS).
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('end', () => {
      clearTimeout(timer);
      socket.destroy();
    });
    socket.resume();
  };
}

/** Reads up to LENGTH_PEEK of a body: all of it (so its length is known) or the start of a longer one. */
async function peek(
  body: ReadableStream<Uint8Array>,
): Promise<{ chunks: Uint8Array[]; done: boolean; rest: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= LENGTH_PEEK) {
    const { done, value } = await reader.read();
    if (done) return { chunks, done: true, rest: reader };
    chunks.push(value);
    size += value.byteLength;
  }
  return { chunks, done: false, rest: reader };
}

async function writeResponse(
  res: ServerResponse,
  response: Response,
  method: string,
  closeAfter: boolean,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    if (k !== 'set-cookie') headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  if (closeAfter) headers['connection'] = 'close';
  const noContent = response.status === 204 || response.status === 304 || response.status < 200;
  if (noContent || method === 'HEAD' || response.body === null) {
    // A HEAD answer describes the body it leaves out (the S3 view's HeadObject): keep its length.
    if (!noContent && headers['content-length'] === undefined) headers['content-length'] = '0';
    res.writeHead(response.status, headers);
    res.end();
    await response.body?.cancel();
    return;
  }
  const { chunks, done, rest } = await peek(response.body);
  if (done && headers['content-length'] === undefined)
    headers['content-length'] = String(chunks.reduce((n, c) => n + c.byteLength, 0));
  res.writeHead(response.status, headers);
  for (const c of chunks) res.write(c);
  if (done) {
    res.end();
    return;
  }
  rest.releaseLock();
  await io!.pipeline(io!.Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), res);
}

/** A raw HTTP/1.1 response, for a connection whose bytes are not a request (no ServerResponse exists). */
async function rawResponse(response: Response): Promise<Buffer> {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || 'Bad Request'}`];
  response.headers.forEach((v, k) => lines.push(`${k}: ${v}`));
  lines.push(`content-length: ${body.length}`, 'connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]);
}

/**
 * Serves `handler` over HTTP, or HTTPS with `tls`; port 0 picks a free port. `malformed` and
 * `failed` answer in the surface's own format (the defaults are plain text).
 */
export async function serveHandler(handler: RequestHandler, options: ServeOptions = {}): Promise<RunningServer> {
  const { createServer: createHttpServer } = await loadIo();
  const host = options.host ?? '127.0.0.1';
  const malformed = options.malformed ?? plainMalformed;
  const failed = options.failed ?? plainFailed;
  const tls = options.tls ? await tlsMaterial(options.tls, host) : undefined;
  // node:https (and node:tls under it) loads only for a TLS server, not with edge-doubles/node.
  const https = tls && (await import('node:https'));
  const scheme = tls ? 'https' : 'http';
  const shown = host.includes(':') ? `[${host}]` : host;

  /** Responses not yet finished on each connection, and the connections to close once they are. */
  const inFlight = new WeakMap<Socket, number>();
  const closing = new WeakSet<Socket>();
  /** The request on each connection whose body is still arriving, and its response. */
  const receiving = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse; method: string }>();
  const settle = (socket: Socket) => {
    const left = (inFlight.get(socket) ?? 1) - 1;
    inFlight.set(socket, left);
    if (left === 0 && closing.has(socket)) socket.end();
  };

  let port = 0;
  const commit = options.settle;
  const expectContinue: ExpectContinue = options.expectContinue ?? 'send';
  /** `waiting`: the request asked for `100 Continue` (Node's 'checkContinue') and it is this server's to send. */
  const serve = (req: IncomingMessage, res: ServerResponse, waiting: boolean) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => settle(socket));
    const method = req.method ?? 'GET';
    if (!req.complete) {
      receiving.set(socket, { req, res, method });
      req.once('end', () => receiving.get(socket)?.req === req && receiving.delete(socket));
    }
    let continueSent = false;
    const continued = waiting
      ? () => {
          if (continueSent || res.headersSent) return;
          continueSent = true;
          res.writeContinue();
        }
      : undefined;
    const built = buildRequest(req, scheme, `${shown}:${port}`, continued);
    const handled =
      'malformed' in built ? Promise.resolve(malformed(built.malformed)) : handler(built.request, built.target);
    const answer: Promise<Response> = (commit ? handled.then(async (r) => (await commit(), r)) : handled).catch(
      (e: unknown) => failed(e),
    );
    answer
      .then((response) => {
        if (res.headersSent) return; // already refused: the body's framing broke (clientError below)
        const unread = 'malformed' in built ? (req.complete ? 0 : undefined) : built.bodyUnread();
        // The handler answered without reading the whole body: throw the rest away (never keep it),
        // keeping the connection when little is left; otherwise say the connection closes. A client
        // refused before its 100 Continue need not send the body at all (RFC 9110 §10.1.1): the
        // connection closes, so that its next request is not read as this one's body.
        const close = unread !== 0 && (unread === undefined || unread > DRAIN_LIMIT || (waiting && !continueSent));
        if (unread !== 0) {
          req.removeAllListeners('data'); // the body stream stops here; nothing is buffered for it any more
          req.resume();
        }
        if (unread !== 0 && (close || 'malformed' in built)) lingerOnClose(socket);
        if ('malformed' in built) return writeResponse(res, response, method, true);
        return writeResponse(res, response, method, close);
      })
      .catch((e: unknown) => {
        // The answer could not be written (the client went away, or a response body failed midway).
        if (!res.headersSent) {
          void writeResponse(res, failed(e), method, true).catch(() => res.destroy());
        } else res.destroy();
      });
  };

  const serverOptions = { requireHostHeader: false };
  // TLS 1.2 at most: under TLS 1.3 the server's session tickets arrive after the handshake, and
  // botocore (the aws CLI), waiting up to a second for a `100 Continue` (that r2 serve sent none
  // before issue 27, and sends none with expectContinue 'silent'), takes their bytes for an answer and then waits forever for a status line (seen with awscli 1.45 /
  // botocore 1.43: every upload over --tls hung; spec/s3/server.test.ts). R2 accepts TLS 1.2 too.
  const tlsOptions = tls && { ...serverOptions, cert: tls.cert, key: tls.key, maxVersion: 'TLSv1.2' as const };
  const listener = (req: IncomingMessage, res: ServerResponse) => serve(req, res, false);
  const server: Server =
    https && tlsOptions ? https.createServer(tlsOptions, listener) : createHttpServer(serverOptions, listener);
  // Handling checkContinue ourselves means Node sends no interim 100 on its own: 'send' sends it when
  // the handler first reads the body (so a refusal is answered instead), 'silent' never.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => serve(req, res, expectContinue === 'send'));
  const failedSockets = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Node reports a connection once per parse error, but may call again for bytes after it.
    if (failedSockets.has(socket)) return;
    failedSockets.add(socket);
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const open = receiving.get(socket);
    if (open && !open.req.complete && !open.res.headersSent) {
      // The body's framing broke midway (a chunk size that is not hex: HPE_INVALID_CHUNK_SIZE): the
      // request can never complete, and the handler would wait on its body until a timeout. Refuse
      // it now and close; once the connection is gone the body stream ends in error, so the handler
      // stores nothing.
      receiving.delete(socket);
      socket.once('close', () => open.req.destroy(err));
      void writeResponse(
        open.res,
        malformed(`invalid request body (${err.code ?? err.message})`),
        open.method,
        true,
      ).catch(() => socket.destroy());
      return;
    }
    if ((inFlight.get(socket) ?? 0) > 0) {
      // Bytes after a request (a DDNS client pads with NULs to 8 KiB): finish what was asked, then close.
      closing.add(socket);
      return;
    }
    const answer =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new Response(null, { status: 431, statusText: 'Request Header Fields Too Large' })
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new Response(null, { status: 408, statusText: 'Request Timeout' })
          : malformed(`not an HTTP request (${err.code ?? err.message})`);
    rawResponse(answer).then(
      (bytes) => socket.end(bytes),
      () => socket.destroy(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    origin: `${scheme}://${shown}:${port}`,
    port,
    host,
    ...(tls?.ca ? { ca: tls.ca } : {}),
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((err) => (err ? fail(err) : done()));
        server.closeAllConnections?.();
      }),
  };
}
