/**
 * Talks HTTP/1.1 to a server over a raw `node:net` socket: what a real client may send (a path as
 * written, a Host that is not a host, NUL padding, pipelined requests) and exactly what comes back,
 * byte for byte, which no HTTP client library lets a test do.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Opens a connection; `exchange` writes bytes and reads until the server closes (or `idleMs` of silence). */
export function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  let closed = false;
  socket.on('data', (c: Buffer) => received.push(c));
  const ended = new Promise<void>((resolve) => socket.on('close', () => ((closed = true), resolve())));
  socket.on('error', () => {});
  return {
    socket,
    write: (bytes: string | Buffer) => new Promise<void>((resolve) => socket.write(bytes, () => resolve())),
    /** Everything received so far, once the server closed or went quiet for `idleMs`. */
    async read(idleMs = 300): Promise<string> {
      let seen = -1;
      while (!closed && seen !== received.length) {
        seen = received.length;
        await Promise.race([ended, new Promise((r) => setTimeout(r, idleMs))]);
      }
      return Buffer.concat(received).toString('latin1');
    },
    get closed() {
      return closed;
    },
    close: () => socket.destroy(),
  };
}

/** Splits a stream of HTTP/1.1 responses (Content-Length framed or bodiless) into their parts. */
export function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const i = l.indexOf(':');
      headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

/** One request on a new connection; resolves with every response the server sent before closing or falling quiet. */
export async function rawRequest(port: number, bytes: string | Buffer, idleMs?: number): Promise<RawResponse[]> {
  const c = rawConnection(port);
  await c.write(bytes);
  const text = await c.read(idleMs);
  c.close();
  return parseResponses(text);
}
