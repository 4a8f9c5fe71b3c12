/**
 * The double's zones over real DNS: a UDP and a TCP listener on one port number (loopback unless
 * told otherwise), each message answered by dns-message.ts. Node only (`dgram`, `net`).
 *
 * Bounds: a UDP query waits for at most MAX_UDP_IN_FLIGHT others (more are dropped, as a loaded
 * server drops datagrams); a TCP connection is answered one message at a time, in order, reads
 * pause while more than two whole messages wait, and an idle connection is closed.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { DnsAnswerCache } from './dns-answer-cache.js';
import { respond, type DnsAnswerer, type DnsExchange, type RespondOptions } from './dns-message.js';

/** Where the DNS server listens (UDP and TCP on one port) and what answers its questions. */
export interface DnsWireOptions {
  /** 0 (the default) picks a port free for both UDP and TCP. */
  port?: number;
  /** 127.0.0.1 unless told otherwise. */
  host?: string;
  /**
   * A TCP connection with no message for this long is closed. Default 10 s, our choice
   * (docs/sources/dns-wire.md#edns-udp-and-tcp); RFC 7766 §6.2.3 asks for seconds, not minutes.
   */
  tcpIdleTimeoutMs?: number;
  /** Called after each answered (or refused) message. */
  onExchange?: (exchange: DnsExchange) => void;
  /** Encoded answers to send again while the zones are unchanged (a hit does not ask the answerer). */
  cache?: DnsAnswerCache;
}

/** A running DNS server: its port, and `close()`. */
export interface RunningDnsWire {
  host: string;
  /** The one port number UDP and TCP listen on. */
  port: number;
  /** Stops listening on UDP and TCP. */
  close(): Promise<void>;
}

const MAX_UDP_IN_FLIGHT = 1024;
/** Two messages of the largest size: a pipelining client is read ahead this far, never further. */
const TCP_READ_AHEAD = 2 * (65535 + 2);
/** How many times a free port is drawn again when UDP finds the port TCP got already taken. */
const PORT_ATTEMPTS = 20;

function listenTcp(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function bindUdp(socket: UdpSocket, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

/** Serves `answerer` over UDP and TCP; resolves once both listen. */
export async function serveDns(answerer: DnsAnswerer, options: DnsWireOptions = {}): Promise<RunningDnsWire> {
  const host = options.host ?? '127.0.0.1';
  const idle = options.tcpIdleTimeoutMs ?? 10_000;
  const onExchange = options.onExchange;
  const extra = { ...(onExchange ? { onExchange } : {}), ...(options.cache ? { cache: options.cache } : {}) };
  const connections = new Set<Socket>();

  const tcp = createServer((socket) =>
    serveConnection(socket, answerer, idle, connections, { transport: 'tcp', ...extra }),
  );
  let udp: UdpSocket | undefined;
  let port = 0;
  for (let attempt = 0; !udp; attempt++) {
    port = await listenTcp(tcp, options.port ?? 0, host);
    const socket = createSocket({ type: host.includes(':') ? 'udp6' : 'udp4' });
    try {
      await bindUdp(socket, port, host);
      udp = socket;
    } catch (e) {
      socket.close();
      await new Promise<void>((done) => tcp.close(() => done()));
      // A port picked by the system for TCP may be someone's UDP port: draw again.
      const taken = (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!taken || options.port || attempt + 1 >= PORT_ATTEMPTS) throw e;
    }
  }

  let inFlight = 0;
  const udpSocket = udp;
  const udpOptions: RespondOptions = { transport: 'udp', ...extra };
  udpSocket.on('error', () => {
    // A send to a closed port (ICMP unreachable) and the like: the next datagram is unaffected.
  });
  udpSocket.on('message', (message, peer) => {
    if (inFlight >= MAX_UDP_IN_FLIGHT) return;
    const send = (out: Buffer | undefined | null) => {
      if (!out) return;
      try {
        // No callback: then Node tries the send at once (uv_udp_try_send) instead of queueing it,
        // which halved the server's CPU per query in bench/dns-wire.ts; a failure is an 'error' event.
        udpSocket.send(out, peer.port, peer.address);
      } catch {
        // The socket closed while an answer was on its way.
      }
    };
    // Synchronous when the answerer is (DnsApi.answer): no promise per datagram.
    let out: ReturnType<typeof respond>;
    try {
      out = respond(message, answerer, udpOptions);
    } catch {
      return; // respond is written not to throw; were it to, one datagram goes unanswered, not the server
    }
    if (!(out instanceof Promise)) return send(out);
    inFlight++;
    out.then(send, () => undefined).finally(() => inFlight--);
  });

  return {
    host,
    port,
    close: async () => {
      for (const socket of connections) socket.destroy();
      await Promise.all([
        new Promise<void>((done) => tcp.close(() => done())),
        new Promise<void>((done) => udpSocket.close(() => done())),
      ]);
    },
  };
}

/** One TCP connection: 2-byte length-prefixed messages (RFC 1035 §4.2.2), several per connection (RFC 7766 §6.2.1). */
function serveConnection(
  socket: Socket,
  answerer: DnsAnswerer,
  idleMs: number,
  connections: Set<Socket>,
  tcpOptions: RespondOptions,
) {
  connections.add(socket);
  socket.on('close', () => connections.delete(socket));
  socket.on('error', () => socket.destroy());
  socket.setTimeout(idleMs, () => socket.destroy());

  let pending: Buffer = Buffer.alloc(0);
  let busy = false;

  const next = async () => {
    if (busy) return;
    busy = true;
    try {
      while (!socket.destroyed && pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const message = pending.subarray(2, 2 + length);
        pending = pending.subarray(2 + length);
        const out = await respond(message, answerer, tcpOptions);
        // Dropped by a fault rule: no answer, the connection stays (the client times out on this one).
        if (out === null) continue;
        if (!out) {
          // No header to answer: the stream cannot be trusted past it (RFC 7766 §6.2.4 allows closing).
          socket.destroy();
          return;
        }
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(out.length);
        socket.write(Buffer.concat([prefix, out]));
      }
    } catch {
      socket.destroy();
    } finally {
      busy = false;
    }
    if (pending.length < TCP_READ_AHEAD && socket.isPaused()) socket.resume();
  };

  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    if (pending.length >= TCP_READ_AHEAD) socket.pause();
    void next();
  });
}
