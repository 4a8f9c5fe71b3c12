/** edge-doubles/node: the Node-only parts (the HTTP and DNS servers, createEnv from a wrangler file). */
export {
  serveHandler,
  type ExpectContinue,
  type RequestHandler,
  type RunningServer,
  type ServeOptions,
  type TlsOption,
} from './server.js';
export {
  startApiServer,
  startDnsApiServer,
  startDnsServer,
  startS3Server,
  type ApiServerOptions,
  type DnsServerOptions,
  type DnsServiceOptions,
  type HostRoute,
  type RunningDnsServer,
  type S3ServerOptions,
  type ServerListenOptions,
} from './account-server.js';
export type { DnsExchange } from './dns-message.js';
export { createEnv, findWranglerConfig, readWranglerConfig } from './config.js';
