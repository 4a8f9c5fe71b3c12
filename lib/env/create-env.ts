/**
 * `createEnv`: the `env` a Worker gets from its wrangler config, with every bucket binding backed
 * by a `Bucket` double, validated as wrangler validates it. Runs everywhere (the config is an
 * object); `edge-doubles/node` adds reading the config from a file.
 */
import { accountState, type Account } from '../account/account.js';
import { chosenAccount, type AccountHolder } from '../account/state.js';
import { homeLocation, isJurisdiction, R2 } from '../bucket/backend.js';
import { Bucket, bindingFor, clockOf } from '../bucket/bucket.js';
import { lifecycleTimingOption, type LifecycleTiming } from '../bucket/lifecycle.js';
import type { Clock } from '../clock.js';
import { localIdentity } from './bucket-bindings.js';
import { Queue, presetConsumerSettings, type QueueHandler } from '../queue/queue.js';
import { QUEUES } from '../queue/backend.js';
import { consumerSettings } from './queue-bindings.js';
import { BUCKET_FIELDS } from './fields.js';
import { resolveConfig, type WranglerConfig } from './validate.js';

export interface CreateEnvOptions {
  /** The `[env.<name>]` section to use, as `wrangler --env <name>`; the top level by default. */
  environment?: string;
  /**
   * Bindings of types this package does not fake (KV, D1, services, secrets, rate limiters, email
   * senders, ...: every binding kind of wrangler's config schema but buckets and vars) are left out
   * of `env` and listed in `unfaked`. `'warn'` also reports them through `onWarning`; `'error'`
   * throws instead, naming each, for suites that must not run with part of their env missing.
   * Default `'list'`.
   */
  unsupported?: 'list' | 'warn' | 'error';
  /**
   * Receives wrangler's warnings for the config (unknown fields, bindings an environment does not
   * redeclare, ...) rendered as wrangler prints them, once per call. Default `console.warn`.
   */
  onWarning?: (message: string) => void;
  /**
   * The clock every bucket and queue reads "now" from (default `Date.now()`, so fake timers apply).
   * A bucket or queue taken from an account (`account`, `api`) runs on the clock it was made with,
   * shared by every view of it, so it cannot take this one: give the same clock to what made it
   * (`new CloudflareApi({ clock })`, `new Account({ clock })`, `new Bucket({ clock })`); given a
   * different one here, `createEnv` throws naming the binding.
   */
  clock?: Clock;
  /**
   * Record every bucket's calls from the start (`bucket.log`), as `new Bucket({ log: true })`: a
   * test asserting calls with `toHaveReceived` then needs no `log.start()` per binding. Default false.
   */
  log?: boolean;
  /**
   * When the lifecycle rules of the buckets this call makes act, as `new Bucket({ lifecycleTiming })`:
   * 'exact' (the default) or 'daily'. A bucket the account already has keeps its own.
   */
  lifecycleTiming?: LifecycleTiming;
  /** The config file's name in messages (set by `edge-doubles/node`); default "wrangler". */
  configPath?: string;
  /**
   * The account whose buckets the bindings see, by local bucket name (`preview_bucket_name ??
   * bucket_name ?? binding`): a bucket the account already has is bound as it is (its own options
   * stand) when its compatibility switches are this config's, else through a binding over it with
   * this config's date and flags (`new Bucket({ over })`: the same objects, this Worker's
   * behaviour); one it lacks is made as without an account and added to it, so every other view of
   * the account (another `createEnv`, the S3 view, the API) sees the same bucket. Default: fresh
   * buckets, in no account.
   *
   * Over an account, a binding's `jurisdiction` (`eu`, `fedramp`, ...) names the bucket of that
   * jurisdiction, as on the platform, where each jurisdiction's buckets are apart (the API's
   * `cf-r2-jurisdiction`); an unknown value is the default jurisdiction's. Without an account it is
   * ignored, as Miniflare ignores it.
   */
  account?: Account;
  /**
   * The API double whose account the bindings see (`createEnv(config, { api })`): the same as
   * `account: api.account`, so a bucket made through the API (wrangler, the SDK) is the one bound.
   */
  api?: AccountHolder;
  /**
   * The Worker (its default export): its `queue(batch, env, ctx)` handler becomes the consumer of
   * every queue the config's `[[queues.consumers]]` lists, with that entry's settings and this
   * `env`. A Worker without a `queue` handler gets workerd's error for each batch ("Handler does
   * not export a queue() function."), which fails the delivery. Without `worker`, the consumers'
   * queues are made with the entry's settings, and nothing consumes them until `queue.consume(handler)`.
   */
  worker?: { queue?: QueueHandler<never, never> };
  /**
   * Your own bindings, put in `env` as given (the same objects): what this package does not fake
   * (a KV namespace, a D1 database, a service, a secret), so the Worker, and the queue consumer
   * `worker` attaches (its `env` is this `env`), find them under their names. One the config
   * declares stops being listed in `unfaked` (nor warned of, nor refused by `unsupported: 'error'`);
   * one may stand for a `vars` entry (as a `.dev.vars` secret does under `wrangler dev`); a name the
   * config binds to a bucket or queue double throws.
   */
  bindings?: Readonly<Record<string, unknown>>;
}

/** A binding `createEnv` did not fake: it is absent from `env`. */
export interface UnfakedBinding {
  /**
   * The name the Worker reads it under (`env.CACHE`): the entry's `binding`, or its `name` where the
   * kind names entries so (`send_email`, `ratelimits`, `durable_objects.bindings`, `unsafe.bindings`).
   */
  binding: string;
  /** The config field that declares it (`kv_namespaces`, `d1_databases`, `secrets`, `ratelimits`, ...). */
  field: string;
  /** Wrangler's name for its type (`KV Namespace`). */
  kind: string;
}

export interface CreatedEnv<E> {
  /**
   * Each bucket binding's `Bucket`, under its binding name, and each of the environment's `vars`
   * as wrangler passes them: a string as it is, any other value (a number, a boolean, a table) as
   * that value, a fresh copy.
   * The default type fits a config of buckets alone: name your `Env` when it has vars.
   */
  env: E;
  /**
   * One `Bucket` per local bucket (`preview_bucket_name ?? bucket_name ?? binding`): bindings of one
   * bucket are the same instance, as they share one store under `wrangler dev`.
   */
  buckets: Map<string, Bucket>;
  /**
   * One `Queue` per queue name the config names (producers, consumers and their dead-letter
   * queues): the account's when one is given. Bindings of one queue are the same instance.
   */
  queues: Map<string, Queue>;
  /** Bindings left out of `env`, in wrangler's type order. */
  unfaked: UnfakedBinding[];
  /** Wrangler's warnings for this config, one message each. */
  warnings: string[];
}

/** Wrangler's validation errors for a config, rendered as wrangler prints them. */
export class WranglerConfigError extends Error {
  override name = 'WranglerConfigError';
  constructor(
    message: string,
    /** Each error message on its own. */
    readonly errors: string[],
  ) {
    super(message);
  }
}

/**
 * Builds `env` from a parsed wrangler config: each `r2_buckets` / `store_buckets` entry becomes a
 * `Bucket` under its binding, with the config's compatibility date and flags, and each of its
 * `vars` is there as wrangler gives it. Throws `WranglerConfigError` where wrangler refuses the
 * config.
 */
export function createEnv<E = Record<string, Bucket>>(
  config: WranglerConfig,
  options: CreateEnvOptions = {},
): CreatedEnv<E> {
  const lifecycleTiming = lifecycleTimingOption(options.lifecycleTiming, 'createEnv');
  const { config: resolved, diagnostics } = resolveConfig(config, options);
  if (diagnostics.hasErrors()) throw new WranglerConfigError(diagnostics.render('errors'), diagnostics.all('errors'));
  const warnings = diagnostics.all('warnings');
  const warn = options.onWarning ?? ((m: string) => console.warn(m));
  if (diagnostics.hasWarnings()) warn(diagnostics.render('warnings'));

  const given = options.bindings ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new TypeError(
      `createEnv: option 'bindings' must be an object of name → binding, got ${Array.isArray(given) ? 'an array' : String(given)}`,
    );
  const doubled = resolved.bindingsByType.filter(
    ({ field }) => field === 'queues' || (BUCKET_FIELDS as readonly string[]).includes(field),
  );
  for (const { names, kind } of doubled) {
    for (const n of names)
      if (Object.hasOwn(given, n))
        throw new Error(
          `createEnv: bindings.${n} names the config's ${kind} binding ${n}, which createEnv makes itself; give your binding another name`,
        );
  }
  const unfaked = resolved.bindingsByType
    .filter(
      ({ field }) => field !== 'vars' && field !== 'queues' && !(BUCKET_FIELDS as readonly string[]).includes(field),
    )
    .flatMap(({ field, kind, names }) => names.map((binding) => ({ binding, field, kind })))
    .filter(({ binding }) => !Object.hasOwn(given, binding));
  const mode = options.unsupported ?? 'list';
  if (unfaked.length > 0 && mode !== 'list') {
    const message =
      `createEnv: ${unfaked.length === 1 ? 'this binding is' : 'these bindings are'} not faked by edge-doubles and ${unfaked.length === 1 ? 'is' : 'are'} missing from env: ` +
      unfaked.map((u) => `${u.binding} (${u.kind}, ${u.field})`).join(', ');
    if (mode === 'error') throw new Error(message);
    warnings.push(message);
    warn(message);
  }

  const buckets = new Map<string, Bucket>();
  const env: Record<string, unknown> = {};
  const chosen = chosenAccount(options, 'createEnv');
  const account = chosen && accountState(chosen);
  const { compatibilityDate, compatibilityFlags } = resolved;
  for (const { entry } of resolved.buckets) {
    const name = localIdentity(entry);
    // Without an account, jurisdiction is ignored as Miniflare ignores it (one local store); over one,
    // another jurisdiction's bucket of the same name is another bucket, as the API keeps them.
    const jurisdiction = account && isJurisdiction(entry.jurisdiction) ? entry.jurisdiction : 'default';
    const identity = jurisdiction === 'default' ? name : `${name} (${jurisdiction})`;
    let bucket = buckets.get(identity);
    if (bucket === undefined) {
      const held = account?.backend(R2).buckets(jurisdiction).get(name);
      if (held) {
        sameClock(options.clock, clockOf(held), `bucket ${name} (binding ${entry.binding})`);
        bucket = bindingFor(held, compatibilityDate, compatibilityFlags);
      } else {
        bucket = new Bucket({
          compatibilityDate,
          compatibilityFlags,
          clock: options.clock,
          log: options.log,
          lifecycleTiming,
        });
        // Through the account's R2 backend (lib/bucket/backend.ts); the name was checked with the config.
        if (account)
          account
            .backend(R2)
            .create(
              name,
              bucket,
              jurisdiction === 'default' ? undefined : { jurisdiction, location: homeLocation(jurisdiction) },
            );
      }
    }
    buckets.set(identity, bucket);
    env[entry.binding] = bucket;
  }
  // Queues: the account's by name, else this call's own; one Queue per name. A queue the account
  // already has keeps its own options (date, clock, delivery delay).
  // The account's are its Queues backend's (lib/queue/backend.ts), which also finds their dead-letter queues.
  const held = account?.backend(QUEUES);
  const queues = new Map<string, Queue>();
  const queueNamed = (name: string, deliveryDelay?: number): Queue => {
    if (held) {
      const entry = held.entry(name);
      if (entry) {
        sameClock(options.clock, entry.state.clock, `queue ${name}`);
        return entry.queue;
      }
      const making = { compatibilityDate, compatibilityFlags, clock: options.clock, log: options.log, deliveryDelay };
      return held.add(name, making).queue;
    }
    let q = queues.get(name);
    if (!q) {
      q = new Queue({
        name,
        compatibilityDate,
        compatibilityFlags,
        clock: options.clock,
        log: options.log,
        deliveryDelay,
        queues,
      });
      queues.set(name, q);
    }
    return q;
  };
  const used = new Map<string, Queue>();
  for (const p of resolved.queues.producers ?? []) {
    const q = queueNamed(p.queue, p.delivery_delay);
    used.set(p.queue, q);
    env[p.binding] = q;
  }
  for (const c of resolved.queues.consumers ?? []) {
    const q = queueNamed(c.queue);
    used.set(c.queue, q);
    const settings = consumerSettings(c);
    presetConsumerSettings(q, settings);
    if (options.worker) {
      const worker = options.worker;
      q.consume(
        (batch, e, ctx) => {
          // workerd's error for a Worker with no queue handler (src/workerd/api/queue.c++).
          if (typeof worker.queue !== 'function') throw new Error('Handler does not export a queue() function.');
          return worker.queue(batch as never, e as never, ctx);
        },
        { ...settings, env },
      );
    }
    if (settings.deadLetterQueue !== undefined)
      used.set(settings.deadLetterQueue, queueNamed(settings.deadLetterQueue));
  }
  // Plain values, not fakes: workerd gets a string var as text and any other as JSON, so each is
  // given as a copy (a test changing env.LIMITS.max cannot change what the next createEnv gives).
  for (const [name, value] of Object.entries(resolved.vars)) {
    if (value !== undefined) env[name] = typeof value === 'string' ? value : JSON.parse(JSON.stringify(value));
  }
  // The user's own bindings last: they may stand for vars (as `.dev.vars` secrets do), never for a double.
  for (const [name, value] of Object.entries(given)) env[name] = value;
  return { env: env as E, buckets, queues: used, unfaked, warnings };
}

/**
 * Throws unless `held` (the clock an account's bucket or queue was made with) is createEnv's
 * `wanted` one: the bucket is every view's, so it cannot run on this Worker's clock alone.
 */
function sameClock(wanted: Clock | undefined, held: Clock | undefined, what: string): void {
  if (wanted === undefined || wanted === held) return;
  throw new Error(
    `createEnv: the account's ${what} runs on ${held === undefined ? 'Date.now()' : 'another clock'}, not the clock given to createEnv; ` +
      'a bucket or queue keeps the clock it was made with (every view of it shares it), so give that clock to what made it ' +
      "(new CloudflareApi({ clock }), new Account({ clock }), new Bucket({ clock })), or leave createEnv's clock out",
  );
}
