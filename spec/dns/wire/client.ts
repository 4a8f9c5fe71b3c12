/**
 * A small DNS client for the wire tests, on `dns-packet` like the server: one query over UDP (or
 * raw bytes, for malformed messages), and a TCP connection that sends length-framed messages and
 * reads the answers back with `streamDecode`.
 */
import { createSocket } from 'node:dgram';
import { connect, type Socket } from 'node:net';
import packet from 'dns-packet';

/** A decoded record as the tests read it (dns-packet's types leave out what OPT and the others share). */
export interface Rr {
  name: string;
  type: string;
  class?: string;
  ttl: number;
  data: unknown;
  udpPayloadSize?: number;
  extendedRcode?: number;
  ednsVersion?: number;
  flag_do?: boolean;
}

/** A decoded message: dns-packet also gives `rcode` and `opcode`, which @types/dns-packet does not declare. */
export type Decoded = Omit<packet.DecodedPacket, 'answers' | 'authorities' | 'additionals'> & {
  rcode: string;
  opcode: string;
  answers: Rr[];
  authorities: Rr[];
  additionals: Rr[];
};

export const decode = (bytes: Buffer): Decoded => packet.decode(bytes) as unknown as Decoded;

/** A query for one question; `edns` adds an OPT record advertising that payload size, `dnssec` its DO bit. */
export function query(
  name: string,
  type: string,
  init: { id?: number; edns?: number; rd?: boolean; flags?: number; dnssec?: boolean } = {},
): Buffer {
  return packet.encode({
    id: init.id ?? 4242,
    type: 'query',
    flags: (init.flags ?? 0) | (init.rd === false ? 0 : packet.RECURSION_DESIRED),
    questions: [{ name, type: type as packet.RecordType, class: 'IN' }],
    additionals:
      init.edns === undefined
        ? []
        : [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: init.edns,
              flags: init.dnssec ? packet.DNSSEC_OK : 0,
            } as packet.OptAnswer,
          ],
  });
}

/** Sends `bytes` over UDP; resolves with the raw answer, or undefined when none came within `waitMs`. */
export function udpRaw(port: number, bytes: Uint8Array, waitMs = 2000): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      resolve(undefined);
    }, waitMs);
    socket.once('message', (msg) => {
      clearTimeout(timer);
      socket.close();
      resolve(msg);
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      socket.close();
      reject(e);
    });
    socket.send(bytes, port, '127.0.0.1');
  });
}

export async function udp(port: number, bytes: Uint8Array): Promise<Decoded & { size: number }> {
  const raw = await udpRaw(port, bytes);
  if (!raw) throw new Error('no UDP answer');
  return { ...decode(raw), size: raw.length };
}

/** One TCP connection: `send` writes framed messages, `next` reads the next framed answer. */
export interface TcpSession {
  socket: Socket;
  send(bytes: Uint8Array): void;
  /** Writes bytes as they are (framing included by the caller). */
  write(bytes: Uint8Array): void;
  next(waitMs?: number): Promise<Decoded>;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  close(): void;
}

export async function tcpSession(port: number): Promise<TcpSession> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  let buffered = Buffer.alloc(0);
  const waiting: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting.splice(0).forEach((wake) => wake());
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    send: (bytes) => {
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(bytes.length);
      socket.write(Buffer.concat([prefix, bytes]));
    },
    write: (bytes) => socket.write(bytes),
    async next(waitMs = 2000) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        if (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
          const decoded = packet.streamDecode(buffered) as unknown as Decoded;
          buffered = buffered.subarray(2 + buffered.readUInt16BE(0));
          return decoded;
        }
        if (Date.now() > deadline || socket.destroyed) throw new Error('no TCP answer');
        await new Promise<void>((wake) => {
          waiting.push(wake);
          setTimeout(wake, 50);
        });
      }
    },
    closed,
    close: () => socket.destroy(),
  };
}
