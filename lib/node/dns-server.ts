/**
 * The DNS double as a running service: its REST API over HTTP (server.ts) and, with `dnsPort`, its
 * zones over real DNS (dns-wire.ts) from the same `DnsApi`, so a record written through the API is
 * what a resolver, dig or an ACME server reads a moment later.
 *
 * A question over UDP, top to bottom: the socket's datagram (dns-wire.ts `serveDns`) → the message
 * read and checked (dns-message.ts `respond`: one QUERY, EDNS, what is refused before the model) →
 * `api.ask(question, 'udp')` (lib/dns-api/zones-api.ts) → the test support's `question`
 * (lib/api/support.ts: the call log entry with surface `dns`, fault rules that answer SERVFAIL, drop
 * or delay) → `api.answer` → resolution over the zones (lib/dns/resolve.ts) → back to `respond`, which
 * encodes the answer (truncated to the UDP limit) for the socket to send.
 */
import type { DnsApi } from '../dns-api/dns-api.js';
import { DnsAnswerCache } from './dns-answer-cache.js';
import type { DnsExchange } from './dns-message.js';
import { startDnsApiServer, type DnsServerOptions, type RunningServer } from './server.js';

export interface DnsServiceOptions extends DnsServerOptions {
  /**
   * Also answer the zones over DNS, UDP and TCP on this port (0: any free port), on the same host as
   * the API. Without it only the API is served.
   */
  dnsPort?: number;
  /** Called after each DNS message answered (or refused): transport, question, rcode, answer count, truncation. */
  onDnsExchange?: (exchange: DnsExchange) => void;
}

/** A running `startDnsServer`: the API server, and the DNS port its zones answer on. */
export type RunningDnsServer = RunningServer & {
  api: DnsApi;
  baseURL: string;
  /** The port DNS answers on (UDP and TCP), when `dnsPort` was given. */
  dnsPort?: number;
};

/**
 * Starts the DNS double's API (as `startDnsApiServer`) and, with `dnsPort`, its DNS server too;
 * `close()` stops both.
 */
export function startDnsServer(
  options: DnsServiceOptions & { dnsPort: number },
): Promise<RunningDnsServer & { dnsPort: number }>;
export function startDnsServer(options?: DnsServiceOptions): Promise<RunningDnsServer>;
export async function startDnsServer(options: DnsServiceOptions = {}): Promise<RunningDnsServer> {
  const { dnsPort, onDnsExchange, ...apiOptions } = options;
  const http = await startDnsApiServer(apiOptions);
  return dnsPort === undefined ? http : withDnsWire(http, http.api, dnsPort, onDnsExchange);
}

/**
 * `running` (an HTTP server of `api`), also answering `api`'s zones over DNS, UDP and TCP on
 * `dnsPort` of the same host; `close()` stops both. If the DNS port cannot be had, the HTTP server
 * is closed and the error thrown. `startDnsServer` and `startApiServer` both use it.
 */
export async function withDnsWire<R extends RunningServer>(
  running: R,
  api: DnsApi,
  dnsPort: number,
  onDnsExchange?: (exchange: DnsExchange) => void,
): Promise<R & { dnsPort: number }> {
  let dns;
  try {
    // The DNS port's code (the sockets, the message codec and dns-packet under it) loads with the
    // first server that asks for one, not with edge-doubles/node.
    const { serveDns } = await import('./dns-wire.js');
    // Through the double's test support: each question is in the call log (surface 'dns') and fault
    // rules with surface 'dns' can fail, drop or delay it (lib/api/support.ts).
    dns = await serveDns((question, transport) => api.ask(question, transport), {
      port: dnsPort,
      host: running.host,
      // Answers encoded once are sent again until a zone changes; onDnsExchange still sees every
      // message, and while the log records or DNS fault rules are armed every question is asked.
      cache: new DnsAnswerCache(() => api.answerState(), { bypass: () => api.watchesQuestions() }),
      ...(onDnsExchange ? { onExchange: onDnsExchange } : {}),
    });
  } catch (e) {
    await running.close();
    throw e;
  }
  return {
    ...running,
    dnsPort: dns.port,
    close: async () => {
      await Promise.all([running.close(), dns.close()]);
    },
  };
}
