/** edge-doubles/node: the Node-only parts (the HTTP and DNS servers, createEnv from a wrangler file). */
export {
  serveHandler,
  startDnsApiServer,
  type DnsServerOptions,
  type ExpectContinue,
  type RequestHandler,
  type RunningServer,
  type ServeOptions,
  type TlsOption,
} from './server.js';
export { startDnsServer, type DnsServiceOptions, type RunningDnsServer } from './dns-server.js';
export type { DnsExchange } from './dns-message.js';
export { startS3Server, type S3ServerOptions } from './s3-server.js';
export { startApiServer, type ApiServerOptions, type HostRoute } from './api-server.js';
export { createEnv, findWranglerConfig, readWranglerConfig } from './config.js';
