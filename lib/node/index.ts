/** edge-doubles/node: the Node-only parts (the HTTP server and the CLI's command table). */
export { serveHandler, startDnsServer, type DnsServerOptions, type RequestHandler, type RunningServer } from './server.js';
export { runCli, services, type CliIo, type Command } from './commands.js';
