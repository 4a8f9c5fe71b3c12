/** The CLI's services and their commands; `runCli` returns an exit code, or undefined while serving. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { DnsCompat, DnsPlan, DnsZoneInit } from '../dns/types.js';
import type { ApiCredential } from '../api/types.js';
import { Account, accountState, type AccountOptions } from '../account/account.js';
import { R2 } from '../bucket/backend.js';
import { DnsApi } from '../dns-api/dns-api.js';
import { CloudflareApi } from '../cloudflare-api/cloudflare-api.js';
import type { BucketStorage } from '../bucket/storage.js';
import type { ImageTarget } from './persist/account-image.js';
import { Bucket } from '../bucket/bucket.js';
import type { LifecycleTiming } from '../bucket/lifecycle.js';
import { PublicBuckets } from '../r2-public/index.js';
import { useSippySource } from '../r2-api/sippy.js';
import { requestLine } from '../api/support.js';
import { dnsWire, serverS3Api, startServer } from './account-server.js';
import type { ExpectContinue, RunningServer } from './server.js';
import { ManualClock } from '../clock.js';
import { ADMIN_PREFIX, isLoopback } from './admin-routes.js';
import type { TlsOption } from './tls.js';
import type { DnsExchange } from './dns-message.js';
import { Persistence, type BucketOptionsKept } from './persist/persistence.js';

/** A CLI command (`edge-doubles <service> <command>`). */
interface Command {
  summary: string;
  usage: string;
  /** Runs with the arguments after the command name; an exit code, or undefined while it serves. */
  run(args: string[], io: CliIo): Promise<number | undefined>;
}

/** Where the CLI writes: standard output and standard error, a line at a time. */
export interface CliIo {
  /** Writes a line to standard output. */
  out(line: string): void;
  /** Writes a line to standard error. */
  err(line: string): void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopped(): Promise<void>;
}

/** The options every serve command takes besides its own: where to listen, TLS, and --help. */
const listenOptions = (port: string) =>
  ({
    port: { type: 'string', default: port },
    host: { type: 'string', default: '127.0.0.1' },
    tls: { type: 'boolean', default: false },
    'tls-ca-out': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'no-continue': { type: 'boolean', default: false },
    clock: { type: 'string', default: 'system' },
    'admin-token': { type: 'string' },
    persist: { type: 'string' },
    'persist-sync': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  }) satisfies ParseArgsConfig['options'];

/** The TLS lines every serve command's usage shows. */
const TLS_USAGE = [
  '--tls serves HTTPS with a certificate made at start (localhost, 127.0.0.1, ::1 and --host), signed by',
  'a CA made at start, whose PEM goes to --tls-ca-out FILE (default: a new temporary file; the path',
  'is printed): point clients at it (curl --cacert, restic --cacert). --tls-cert FILE --tls-key FILE',
  'serve your own certificate instead.',
  "A request with 'Expect: 100-continue' gets an interim 100 Continue once the body is wanted (a",
  "refused one gets its error instead); --no-continue sends none, as Cloudflare's edge: clients then",
  'send their body after their own wait (curl and botocore: 1 s a request).',
  'Test support over HTTP under /_edge-doubles/ (health, snapshot, restore, reset, seed, log, faults,',
  'clock; docs/servers.md, "Test support over HTTP"): open on a loopback --host, elsewhere only with --admin-token T',
  "(sent as 'Authorization: Bearer T'). --clock manual[=<ISO time>] runs the doubles on a clock that moves",
  'only when POST /_edge-doubles/clock says (default start: now, or where a --persist DIR left it); signatures',
  'are still judged by the system clock.',
  '--persist DIR keeps the state in DIR (a SQLite database; one server per DIR; Node 22.13+): objects, uploads, bucket',
  'settings, zones and records, queues and their messages, credentials and ids survive a restart and a',
  'kill -9. A write is committed before it is answered; --persist-sync also waits for the disk each time',
  '(against power loss; slower). Started again on the same DIR, the server serves what it held (the same',
  'account and zone ids), plus the --bucket and --zone names it does not hold yet.',
];

/** What the TLS flags ask for (undefined: plain HTTP); refuses half-given or contradictory flags. */
function tlsFromFlags(values: {
  tls?: boolean;
  'tls-ca-out'?: string;
  'tls-cert'?: string;
  'tls-key'?: string;
}): TlsOption | undefined {
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if ((cert === undefined) !== (key === undefined)) throw new Error('--tls-cert and --tls-key go together');
  if (cert !== undefined) {
    if (values['tls-ca-out'] !== undefined)
      throw new Error('--tls-ca-out is for the CA made by --tls, not with --tls-cert');
    return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key!, 'utf8') };
  }
  if (values['tls-ca-out'] !== undefined && !values.tls) throw new Error('--tls-ca-out needs --tls');
  return values.tls ? true : undefined;
}

/** Writes the CA a --tls server made where the user asked (or a temporary file) and says where. */
function announceCa(server: RunningServer, caOut: string | undefined, io: CliIo): void {
  if (!server.ca) return;
  const path = caOut ?? join(mkdtempSync(join(tmpdir(), 'edge-doubles-ca-')), 'ca.pem');
  writeFileSync(path, server.ca);
  io.out(`tls: CA certificate in ${path}`);
}

type ListenOptions = ReturnType<typeof listenOptions>;
type OwnOptions = NonNullable<ParseArgsConfig['options']>;
/** What parseArgs gives for a serve command's options (its own and the listening ones), parsed strictly. */
type ServeValues<O extends OwnOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: ListenOptions & O; strict: true }>
>['values'];

/** What every serve command hands its server from the shared options. */
interface Listen {
  port: number;
  tls?: TlsOption;
  /** `--no-continue`: keep the edge's silence on `Expect: 100-continue`. */
  expectContinue: ExpectContinue;
  /** `--clock manual[=<ISO>]`: the clock the test-support endpoint moves. */
  clock?: ManualClock;
  /** `--admin-token`. */
  adminToken?: string;
  /** `--persist DIR`, opened (and released when the command ends). */
  persist?: Persistence;
}

/** `--clock system` (default), `manual` (starting now, or at `resumed`: where a --persist DIR left it) or `manual=<ISO time>`. */
function clockFlag(value: string, resumed?: number): ManualClock | undefined {
  if (value === 'system') return undefined;
  if (value === 'manual') return new ManualClock(resumed ?? Date.now());
  if (value.startsWith('manual=')) {
    const at = Date.parse(value.slice('manual='.length));
    if (!Number.isFinite(at))
      throw new Error(
        `--clock manual=<ISO time>: cannot read ${JSON.stringify(value.slice('manual='.length))} as a time`,
      );
    return new ManualClock(at);
  }
  throw new Error(`--clock must be system, manual or manual=<ISO time>, got ${value}`);
}

/** The start-up lines every server prints about its test support. */
function announceSupport(server: RunningServer, listen: Listen, io: CliIo): void {
  const off = !isLoopback(server.host) && listen.adminToken === undefined;
  io.out(
    `test support: ${off ? `off (${server.host} is not loopback: give --admin-token)` : `${server.origin}${ADMIN_PREFIX}${listen.adminToken !== undefined ? ' (with --admin-token)' : ''}`}`,
  );
  if (listen.clock) io.out(`clock: manual, now ${new Date(listen.clock.now()).toISOString()}`);
  const p = listen.persist;
  io.out(
    p
      ? `state: persisted in ${p.dir} (committed before each answer${p.sync === 'fsync' ? ', flushed to disk' : '; survives kill -9, not a power loss: --persist-sync for that'})`
      : 'state: in memory (lost when the server stops; --persist DIR keeps it)',
  );
}

interface ServeSpec<O extends OwnOptions> {
  summary: string;
  usage: string;
  /** --port's default. */
  port: string;
  /** The command's own options, besides --port, --host and --help. */
  options: O;
  /** Starts the server and serves until stopped (--help answered, --port and the TLS flags checked already). */
  serve(values: ServeValues<O>, listen: Listen, io: CliIo): Promise<number>;
}

/**
 * A command that starts a server. Every server's command parses its options strictly, answers
 * --help with its usage (before any other check) and refuses a --port outside 0..65535, so those
 * steps live here once.
 */
function serveCommand<O extends OwnOptions>(spec: ServeSpec<O>): Command {
  return {
    summary: spec.summary,
    usage: spec.usage,
    async run(args, io) {
      const { help, ...listening } = listenOptions(spec.port);
      const { values } = parseArgs({ args, options: { ...listening, ...spec.options, help }, strict: true });
      const listen = values as {
        port: string;
        help?: boolean;
        tls?: boolean;
        'tls-ca-out'?: string;
        'tls-cert'?: string;
        'tls-key'?: string;
        'no-continue'?: boolean;
        clock: string;
        'admin-token'?: string;
        persist?: string;
        'persist-sync'?: boolean;
      };
      if (listen.help) {
        io.out(spec.usage);
        return 0;
      }
      const portNumber = Number(listen.port);
      if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535)
        throw new Error(`--port must be 0..65535, got ${listen.port}`);
      const tls = tlsFromFlags(listen);
      const expectContinue: ExpectContinue = listen['no-continue'] ? 'silent' : 'send';
      const token = listen['admin-token'];
      if (token !== undefined && token.length < 8) throw new Error('--admin-token must be at least 8 characters');
      if (listen['persist-sync'] && listen.persist === undefined) throw new Error('--persist-sync needs --persist DIR');
      if (listen.persist === '') throw new Error('--persist needs a directory');
      clockFlag(listen.clock); // checked before DIR is taken
      const persist =
        listen.persist !== undefined
          ? await Persistence.open(listen.persist, {
              sync: listen['persist-sync'] ? 'fsync' : 'commit',
              // A full disk or damaged bytes: each request answers its error; the operator reads why here.
              report: (e) => io.err(e.message),
            })
          : undefined;
      try {
        const clock = clockFlag(listen.clock, persist?.savedClock());
        return await spec.serve(
          values as ServeValues<O>,
          {
            port: portNumber,
            ...(tls ? { tls } : {}),
            expectContinue,
            ...(clock ? { clock } : {}),
            ...(token !== undefined ? { adminToken: token } : {}),
            ...(persist ? { persist } : {}),
          },
          io,
        );
      } finally {
        await persist?.close();
      }
    },
  };
}

/**
 * The account a server serves: with --persist, the one DIR holds (its id, name and creation time;
 * an --account naming another is refused), with its buckets made on DIR's storage from now on;
 * otherwise a new one (--account's id when given).
 */
function servedAccount(listen: Listen, accountFlag: string | undefined, options: AccountOptions): Account {
  const p = listen.persist;
  const saved = p?.savedAccount();
  if (saved && accountFlag !== undefined && accountFlag !== saved.id)
    throw new Error(`--persist ${p!.dir} holds account ${saved.id}, not --account ${accountFlag}`);
  const id = saved?.id ?? accountFlag;
  const account = new Account({
    ...options,
    ...(id !== undefined ? { id } : {}),
    ...(saved
      ? { name: saved.name, created: saved.created, notifyMissingKeyDeletes: saved.notifyMissingKeyDeletes }
      : {}),
    ...(listen.clock ? { clock: listen.clock } : {}),
  });
  if (p)
    accountState(account)
      .backend(R2)
      .keepBucketsIn(() => p.newBucketStorage());
  return account;
}

/**
 * With --persist: what DIR holds loaded into the target, then the command line's zones and buckets
 * that it does not hold yet made (the server attaches DIR and writes everything once before it
 * listens: startServer). Without: the command line's zones and buckets made.
 */
async function loadAndAdd(
  listen: Listen,
  target: ImageTarget,
  given: {
    zones?: readonly DnsZoneInit[];
    buckets?: readonly string[];
    newBucket: (storage?: BucketStorage, kept?: BucketOptionsKept) => Bucket;
  },
): Promise<void> {
  const p = listen.persist;
  const { account, api } = target;
  // A persisted bucket is made as the command makes its own (its clock), on its storage in DIR, with
  // the options it was made with (default storage class, lifecycle timing) as its directory entry kept them.
  if (p) await p.load(target, given.newBucket);
  for (const zone of given.zones ?? []) {
    const held = api!.zone(zone.name);
    if (held && zone.id !== undefined && held.id !== zone.id)
      throw new Error(`--persist ${p!.dir} holds zone ${held.name} as ${held.id}, not ${zone.id}`);
    if (!held) api!.addZone(zone);
  }
  for (const name of given.buckets ?? [])
    if (!account.bucket(name)) account.addBucket(name, given.newBucket(p?.newBucketStorage()));
}

/** `--dns-port N`: 0..65535, or undefined when not given. */
function dnsPortFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`--dns-port must be 0..65535, got ${value}`);
  return port;
}

/** The zone over DNS a server is given by `--dns-port` (none without it); with --log, a line per message. */
const dnsWireFlag = (values: { 'dns-port'?: string; log?: boolean }, io: CliIo) =>
  dnsWire(dnsPortFlag(values['dns-port']), values.log ? (e: DnsExchange) => io.out(exchangeLine(e)) : undefined);

/** The line saying where DNS answers, when it does. */
function announceDns(server: RunningServer & { dnsPort?: number }, io: CliIo): void {
  if (server.dnsPort !== undefined)
    io.out(`dns: udp+tcp ${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.dnsPort}`);
}

/** The options of the zone over DNS, the same for dns serve and api serve. */
const dnsWireOptions = {
  'dns-port': { type: 'string' },
  'ns-name': { type: 'string', multiple: true, default: [] },
  'proxy-address': { type: 'string', multiple: true, default: [] },
} satisfies ParseArgsConfig['options'];

const dnsServe = serveCommand({
  summary: 'serve the DNS records API double over HTTP',
  usage: [
    'edge-doubles dns serve [--port 8788] [--host 127.0.0.1] --zone example.com[=<zone id>] ...',
    '                      [--token T ...] [--email E --key K] [--plan free|pro|business|enterprise]',
    '                      [--compat today|document] [--base-path /client/v4] [--log]',
    '                      [--dns-port N [--ns-name NAME ...] [--proxy-address IP ...]]',
    '                      [--tls [--tls-ca-out FILE] | --tls-cert FILE --tls-key FILE]',
    '',
    'Without --token/--email, any well-formed credential is accepted. --compat today (default)',
    "follows today's API, document the interface document. --base-path '' serves at the bare origin.",
    '--log prints one line per request: time, method, path and query, status, outcome.',
    '--dns-port N also answers the zones over DNS, UDP and TCP on port N of --host (0: any free port;',
    "the port is printed as 'dns: udp+tcp HOST:PORT'): point dig, resolvers or an ACME server at it.",
    "--ns-name NAME (repeatable) names every zone's nameservers (the API's name_servers, the apex NS",
    'and SOA); default two <name>.ns.cloudflare.com per zone. --proxy-address IP (repeatable) is what',
    "proxied names answer with instead of Cloudflare's edge addresses (127.0.0.1 and ::1 send an ACME",
    "server's HTTP-01 check to this machine). With --log, each DNS question gets a line too.",
    ...TLS_USAGE,
  ].join('\n'),
  port: '8788',
  options: {
    zone: { type: 'string', multiple: true, default: [] },
    token: { type: 'string', multiple: true, default: [] },
    email: { type: 'string' },
    key: { type: 'string' },
    plan: { type: 'string', default: 'free' },
    compat: { type: 'string', default: 'today' },
    'base-path': { type: 'string', default: '/client/v4' },
    log: { type: 'boolean', default: false },
    ...dnsWireOptions,
  },
  async serve(values, listen, io) {
    const { clock } = listen;
    if (!['free', 'pro', 'business', 'enterprise'].includes(values.plan!))
      throw new Error(`unknown --plan ${values.plan}`);
    if (values.compat !== 'document' && values.compat !== 'today')
      throw new Error(`--compat must be today or document`);
    const dns = dnsWireFlag(values, io);
    const nameServers = values['ns-name']!;
    const zones: DnsZoneInit[] = values.zone!.map((z) => {
      const [name, id] = z.split('=');
      return {
        name: name!,
        ...(id ? { id } : {}),
        plan: values.plan as DnsPlan,
        ...(nameServers.length ? { nameServers } : {}),
      };
    });
    const credentials: ApiCredential[] = values.token!.map((token) => ({ token }));
    if (values.email !== undefined || values.key !== undefined) {
      if (!values.email || !values.key) throw new Error('--email and --key go together');
      credentials.push({ email: values.email, key: values.key });
    }
    const account = servedAccount(listen, undefined, credentials.length ? { credentials } : {});
    const api = new DnsApi({
      account,
      compat: values.compat as DnsCompat,
      basePath: values['base-path']!,
      ...(values['proxy-address']!.length ? { proxyAddresses: values['proxy-address']! } : {}),
      log: values.log,
      ...(clock ? { clock } : {}),
    });
    // A DIR an api serve wrote may hold buckets: dns serve keeps them (on their clock-less defaults), serving none.
    await loadAndAdd(
      listen,
      { account, api },
      { zones, newBucket: (storage, kept) => new Bucket({ ...kept, ...(storage ? { storage } : {}) }) },
    );
    const server = await startServer({
      command: 'dns',
      account,
      surfaces: { api, ...dns },
      listen: { ...listen, host: values.host! },
    });
    io.out(`edge-doubles dns: listening on ${server.origin}${api.basePath}`);
    announceDns(server, io);
    announceCa(server, values['tls-ca-out'], io);
    for (const z of api.zones) io.out(`zone ${z.name} ${z.id}`);
    // Open while no credential was given, on the command line or (with --persist) before.
    if (accountState(account).credentials.open) io.out('auth: any well-formed credential is accepted');
    announceSupport(server, listen, io);
    if (values.log) api.log.watch((e) => io.out(requestLine(e)));
    await io.stopped();
    await server.close();
    return 0;
  },
});

/** `--log`'s line for a DNS message: time, transport, question, rcode, answers, TC. */
function exchangeLine(e: DnsExchange): string {
  const question = e.question ? `${e.question.name} ${e.question.type}` : '(no question)';
  return `${new Date().toISOString()} dns ${e.transport} ${question} ${e.rcode} answers ${e.answers}${e.truncated ? ` truncated (${e.size} bytes)` : ''}`;
}

/** The usage lines of the options `r2 serve` and `api serve` share for their buckets. */
const BUCKET_USAGE = [
  '--public-bucket NAME (repeatable) makes the bucket as --bucket does and enables its r2.dev domain,',
  "as 'wrangler r2 bucket dev-url enable' would: a request whose Host is the printed pub-<32 hex>.r2.dev",
  "gets R2's public answer (GET and HEAD, ranges, CORS by the bucket's policy), e.g.",
  '  curl --resolve pub-<hex>.r2.dev:PORT:127.0.0.1 http://pub-<hex>.r2.dev:PORT/KEY',
  'The hex derive from the account id and the name: give --account to keep the host from run to run.',
  "--lifecycle-timing exact|daily: when the buckets' lifecycle rules act: at the moment a condition",
  'holds (exact, the default), or at the next 00:00 UTC (daily, production\'s "within 24 hours").',
];

const bucketOptions = {
  account: { type: 'string' },
  'public-bucket': { type: 'string', multiple: true, default: [] },
  'lifecycle-timing': { type: 'string', default: 'exact' },
} satisfies ParseArgsConfig['options'];

/** --lifecycle-timing, checked (the option of Bucket, S3Api and CloudflareApi). */
function lifecycleTimingFlag(value: string | undefined): LifecycleTiming {
  if (value !== 'exact' && value !== 'daily')
    throw new Error(`--lifecycle-timing must be exact or daily, got ${value}`);
  return value;
}

/** --bucket then --public-bucket names, each once, in the order given. */
const bucketNames = (values: { bucket?: string[]; 'public-bucket'?: string[] }) => [
  ...new Set([...values.bucket!, ...values['public-bucket']!]),
];

/** Enables each --public-bucket's r2.dev domain and prints `public <name> <host>`. */
function publish(account: Account, names: readonly string[], io: CliIo): void {
  const hosts = new PublicBuckets(account);
  for (const name of names) io.out(`public ${name} ${hosts.setManagedDomain(name, true)}`);
}

const r2Serve = serveCommand({
  summary: "serve R2's S3-compatible API over in-memory buckets over HTTP",
  usage: [
    'edge-doubles r2 serve [--port 8789] [--host 127.0.0.1] --bucket photos [--bucket more ...]',
    '                     [--credential ID:SECRET ...] [--access-key-id ID --secret-access-key SECRET ...]',
    '                     [--cors-origin ORIGIN ...] [--public-bucket NAME ...] [--account <32 hex>]',
    '                     [--lifecycle-timing exact|daily] [--tls [--tls-ca-out FILE] | --tls-cert FILE --tls-key FILE]',
    '',
    'Path-style: http://<host>:<port>/<bucket>/<key> (https:// with TLS), region auto. The buckets are',
    "one account's (printed): custom domains need a zone, so they are api serve's (wrangler r2 bucket domain).",
    'Each --credential, or each --access-key-id with the --secret-access-key in the same place, is one',
    'key pair (an R2 account has many tokens). Without any, any well-formed signature is accepted.',
    '--cors-origin ORIGIN (scheme://host[:port], or *) writes each bucket a CORS policy letting browsers',
    'on those origins use every method and header (and read ETag); without it, browsers are refused.',
    ...BUCKET_USAGE,
    ...TLS_USAGE,
  ].join('\n'),
  port: '8789',
  options: {
    bucket: { type: 'string', multiple: true, default: [] },
    credential: { type: 'string', multiple: true, default: [] },
    'access-key-id': { type: 'string', multiple: true, default: [] },
    'secret-access-key': { type: 'string', multiple: true, default: [] },
    'cors-origin': { type: 'string', multiple: true, default: [] },
    ...bucketOptions,
  },
  async serve(values, listen, io) {
    const { clock } = listen;
    const ids = values['access-key-id']!;
    const secrets = values['secret-access-key']!;
    if (ids.length !== secrets.length)
      throw new Error('--access-key-id and --secret-access-key go together, one of each per key pair');
    const credentials = ids.map((accessKeyId, i) => ({ accessKeyId, secretAccessKey: secrets[i]! }));
    for (const pair of values.credential!) {
      // Access key IDs hold no ':', secrets may: the first ':' splits.
      const colon = pair.indexOf(':');
      if (colon <= 0 || colon === pair.length - 1) throw new Error(`--credential must be ID:SECRET, got ${pair}`);
      credentials.push({ accessKeyId: pair.slice(0, colon), secretAccessKey: pair.slice(colon + 1) });
    }
    const names = bucketNames(values);
    // A --persist DIR may hold the buckets already (checked once it is loaded, below).
    if (names.length === 0 && !listen.persist) throw new Error('at least one --bucket is needed (or --public-bucket)');
    const lifecycleTiming = lifecycleTimingFlag(values['lifecycle-timing']);
    const origins = values['cors-origin']!;
    // R2 matches an Origin exactly, and an origin is scheme://host[:port] with no path (docs
    // r2/buckets/cors): `http://localhost:5173/` would never match, so it is refused here.
    for (const o of origins)
      if (o !== '*' && !isOrigin(o))
        throw new Error(`--cors-origin must be an origin, scheme://host[:port] with no path (or *), got ${o}`);
    // The buckets are an account's, made (and their names checked) before the server listens: over
    // an account the server answers its public hosts by Host too.
    const account = servedAccount(listen, values.account, {});
    const newBucket = (storage?: BucketStorage, kept?: BucketOptionsKept) =>
      new Bucket({ lifecycleTiming, ...kept, ...(clock ? { clock } : {}), ...(storage ? { storage } : {}) });
    await loadAndAdd(listen, { account }, { buckets: names, newBucket });
    if (account.buckets.length === 0)
      throw new Error(
        `at least one --bucket is needed (or --public-bucket): --persist ${listen.persist!.dir} holds none`,
      );
    const s3 = serverS3Api({
      account,
      lifecycleTiming,
      ...(clock ? { clock } : {}),
      ...(credentials.length ? { credentials } : {}),
    });
    const server = await startServer({
      command: 'r2',
      account,
      surfaces: { s3, publicHosts: true },
      listen: { ...listen, host: values.host! },
    });
    // A browser on these origins may use every method and header (and read ETag, for multipart).
    if (origins.length) {
      const methods = ['GET', 'PUT', 'HEAD', 'POST', 'DELETE'];
      for (const name of names) s3.setBucketCors(name, [{ origins, methods, headers: ['*'], expose: ['ETag'] }]);
    }
    io.out(`edge-doubles r2: listening on ${server.origin}`);
    announceCa(server, values['tls-ca-out'], io);
    io.out(`account ${account.id}`);
    for (const name of account.buckets) io.out(`bucket ${name}`);
    publish(account, values['public-bucket']!, io);
    if (!credentials.length) io.out('auth: any well-formed signature is accepted');
    announceSupport(server, listen, io);
    await io.stopped();
    await server.close();
    return 0;
  },
});

const apiServe = serveCommand({
  summary: 'serve the Cloudflare API double (/client/v4: DNS, R2 buckets and their settings) over HTTP',
  usage: [
    'edge-doubles api serve [--port 8787] [--host 127.0.0.1] [--zone example.com[=<zone id>] ...]',
    '                      [--bucket photos ...] [--account <32 hex>] [--token T ...] [--email E --key K]',
    '                      [--plan free|pro|business|enterprise] [--log] [--public-bucket NAME ...]',
    '                      [--lifecycle-timing exact|daily] [--tls [--tls-ca-out FILE] | --tls-cert FILE --tls-key FILE]',
    '                      [--sippy-endpoint URL] [--dns-port N [--ns-name NAME ...] [--proxy-address IP ...]]',
    '',
    'One account holding the zones and buckets; prints the base URL and the account id. For wrangler:',
    '  CLOUDFLARE_API_BASE_URL=<base URL> CLOUDFLARE_ACCOUNT_ID=<account id> CLOUDFLARE_API_TOKEN=<any>',
    'Without --token/--email, any well-formed credential is accepted.',
    '--log prints one line per request: time, method, path and query, status, outcome.',
    '--sippy-endpoint URL: the S3-compatible server (e.g. another r2 serve) standing in for every Sippy',
    "source, AWS or GCS ('wrangler r2 bucket sippy enable'): a bucket with Sippy on copies a missing key",
    'in from <URL>/<source bucket>/<key>, signed with the source key pair it was given.',
    '--dns-port N also answers the zones over DNS, UDP and TCP, as dns serve does (--ns-name, --proxy-address:',
    "see 'edge-doubles dns serve --help').",
    "On the same port, a request whose Host is one of the account's public hosts (an enabled r2.dev",
    "domain or custom domain) gets that host's answer, and <account id>.r2.cloudflarestorage.com the S3 view.",
    ...BUCKET_USAGE,
    ...TLS_USAGE,
  ].join('\n'),
  port: '8787',
  options: {
    zone: { type: 'string', multiple: true, default: [] },
    bucket: { type: 'string', multiple: true, default: [] },
    token: { type: 'string', multiple: true, default: [] },
    email: { type: 'string' },
    key: { type: 'string' },
    plan: { type: 'string', default: 'free' },
    log: { type: 'boolean', default: false },
    'sippy-endpoint': { type: 'string' },
    ...dnsWireOptions,
    ...bucketOptions,
  },
  async serve(values, listen, io) {
    const { clock } = listen;
    const sippyEndpoint = values['sippy-endpoint'];
    if (sippyEndpoint !== undefined && !/^https?:\/\/[^/]/.test(sippyEndpoint))
      throw new Error(`--sippy-endpoint must be an http(s) URL, got ${sippyEndpoint}`);
    if (!['free', 'pro', 'business', 'enterprise'].includes(values.plan!))
      throw new Error(`unknown --plan ${values.plan}`);
    const lifecycleTiming = lifecycleTimingFlag(values['lifecycle-timing']);
    const names = bucketNames(values);
    const dns = dnsWireFlag(values, io);
    const nameServers = values['ns-name']!;
    const zones: DnsZoneInit[] = values.zone!.map((z) => {
      const [name, id] = z.split('=');
      return {
        name: name!,
        ...(id ? { id } : {}),
        plan: values.plan as DnsPlan,
        ...(nameServers.length ? { nameServers } : {}),
      };
    });
    const credentials: ApiCredential[] = values.token!.map((token) => ({ token }));
    if (values.email !== undefined || values.key !== undefined) {
      if (!values.email || !values.key) throw new Error('--email and --key go together');
      credentials.push({ email: values.email, key: values.key });
    }
    const account = servedAccount(listen, values.account, credentials.length ? { credentials } : {});
    const api = new CloudflareApi({
      account,
      log: values.log,
      lifecycleTiming,
      ...(values['proxy-address']!.length ? { proxyAddresses: values['proxy-address']! } : {}),
      ...(clock ? { clock } : {}),
    });
    const newBucket = (storage?: BucketStorage, kept?: BucketOptionsKept) =>
      new Bucket({ lifecycleTiming, ...kept, ...(clock ? { clock } : {}), ...(storage ? { storage } : {}) });
    await loadAndAdd(listen, { account, api }, { zones, buckets: names, newBucket });
    // The S3 view on R2's S3 host names of the account, on the same port.
    const s3 = serverS3Api({ api, ...(clock ? { clock } : {}) });
    const server = await startServer({
      command: 'api',
      account,
      surfaces: { api, s3, publicHosts: true, queues: true, ...dns },
      listen: { ...listen, host: values.host! },
    });
    io.out(`edge-doubles api: listening on ${server.origin}${api.basePath}`);
    announceDns(server, io);
    announceCa(server, values['tls-ca-out'], io);
    io.out(`account ${account.id}`);
    for (const z of api.zones) io.out(`zone ${z.name} ${z.id}`);
    for (const name of account.buckets) io.out(`bucket ${name}`);
    publish(account, values['public-bucket']!, io);
    if (sippyEndpoint !== undefined) {
      useSippySource(api, { endpoint: sippyEndpoint });
      io.out(`sippy source ${sippyEndpoint}`);
    }
    // Open while no credential was given, on the command line or (with --persist) before.
    if (accountState(account).credentials.open) io.out('auth: any well-formed credential is accepted');
    announceSupport(server, listen, io);
    if (values.log) api.log.watch((e) => io.out(requestLine(e)));
    await io.stopped();
    await server.close();
    return 0;
  },
});

/** Whether `value` is exactly an origin as a browser sends it (`http://localhost:5173`). */
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/** service → command → implementation. */
const services: Record<string, Record<string, Command>> = {
  api: { serve: apiServe },
  dns: { serve: dnsServe },
  r2: { serve: r2Serve },
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

/** Runs `edge-doubles <service> <command> [options]`: an exit code, or undefined while a server runs. */
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
