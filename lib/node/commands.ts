/** The CLI's services and their commands; `runCli` returns an exit code, or undefined while serving. */
import { parseArgs } from 'node:util';
import type { DnsCompat, DnsCredential, DnsPlan, DnsZoneInit } from '../dns/index.js';
import { startDnsServer } from './server.js';

export interface Command {
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number | undefined>;
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopped(): Promise<void>;
}

const dnsServe: Command = {
  summary: 'serve the DNS records API double over HTTP',
  usage: [
    'edge-doubles dns serve [--port 8788] [--host 127.0.0.1] --zone example.com[=<zone id>] ...',
    '                      [--token T ...] [--email E --key K] [--plan free|pro|business|enterprise]',
    '                      [--compat document|today]',
    '',
    'Without --token/--email, any well-formed credential is accepted.',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string', default: '8788' },
        host: { type: 'string', default: '127.0.0.1' },
        zone: { type: 'string', multiple: true, default: [] },
        token: { type: 'string', multiple: true, default: [] },
        email: { type: 'string' },
        key: { type: 'string' },
        plan: { type: 'string', default: 'free' },
        compat: { type: 'string', default: 'document' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    if (values.help) {
      io.out(dnsServe.usage);
      return 0;
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${values.port}`);
    if (!['free', 'pro', 'business', 'enterprise'].includes(values.plan!)) throw new Error(`unknown --plan ${values.plan}`);
    if (values.compat !== 'document' && values.compat !== 'today') throw new Error(`--compat must be document or today`);
    const zones: DnsZoneInit[] = values.zone!.map((z) => {
      const [name, id] = z.split('=');
      return id ? { name: name!, id, plan: values.plan as DnsPlan } : { name: name!, plan: values.plan as DnsPlan };
    });
    const credentials: DnsCredential[] = values.token!.map((token) => ({ token }));
    if (values.email !== undefined || values.key !== undefined) {
      if (!values.email || !values.key) throw new Error('--email and --key go together');
      credentials.push({ email: values.email, key: values.key });
    }
    const server = await startDnsServer({
      port,
      host: values.host!,
      zones,
      compat: values.compat as DnsCompat,
      ...(credentials.length ? { credentials } : {}),
    });
    io.out(`edge-doubles dns: listening on ${server.baseURL}`);
    for (const z of server.api.zones) io.out(`zone ${z.name} ${z.id}`);
    if (!credentials.length) io.out('auth: any well-formed credential is accepted');
    await io.stopped();
    await server.close();
    return 0;
  },
};

/** service → command → implementation. */
export const services: Record<string, Record<string, Command>> = {
  dns: { serve: dnsServe },
};

function usage(): string {
  const lines = ['usage: edge-doubles <service> <command> [options]', ''];
  for (const [service, commands] of Object.entries(services)) {
    for (const [name, c] of Object.entries(commands)) lines.push(`  ${service} ${name}\t${c.summary}`);
  }
  return lines.join('\n');
}

const processIo: CliIo = {
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
  stopped: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};

export async function runCli(argv: string[], io: CliIo = processIo): Promise<number | undefined> {
  const [service, command, ...rest] = argv;
  if (!service || service === '--help' || service === '-h' || service === 'help') {
    io.out(usage());
    return service ? 0 : 2;
  }
  const commands = services[service];
  const cmd = commands?.[command ?? ''];
  if (!cmd) {
    io.err(`unknown command: ${[service, command].filter(Boolean).join(' ')}`);
    io.err(usage());
    return 2;
  }
  return cmd.run(rest, io);
}
