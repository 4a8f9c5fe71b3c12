/** edge-doubles/node: the Node-only parts (the HTTP servers and the CLI's command table). */
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
export { serveDns, type DnsWireOptions, type RunningDnsWire } from './dns-wire.js';
export type { DnsAnswerer, DnsExchange } from './dns-message.js';
export { startS3Server, type S3ServerOptions } from './s3-server.js';
export { startApiServer, type ApiServerOptions, type HostRoute } from './api-server.js';
export { ADMIN_PREFIX, adminRoutes, type AdminOptions, type AdminRouter, type AdminSubject } from './admin-routes.js';
export { runCli, services, type CliIo, type Command } from './commands.js';
export { createEnv, findWranglerConfig, readWranglerConfig } from './config.js';
