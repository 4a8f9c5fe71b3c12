/**
 * `new Bucket(options)`: every option is checked when the bucket is made, so a misspelt name or a
 * wrong value is a TypeError naming the option, never a silent default.
 */
import type { Clock } from '../clock.js';
import { editDistance } from '../edit-distance.js';
import type { Bucket } from './bucket.js';
import { describe, resolveCompat, type BucketCompat } from './compat.js';
import { lifecycleTimingOption, type LifecycleTiming } from './lifecycle.js';
import type { R2PutOptions } from './types.js';
import { BucketStorage, MemoryStorage } from './storage.js';

/** A seeded object: its body alone, or its body with what `put` options would give it. */
export type BucketSeedValue =
  | string
  | ArrayBuffer
  | ArrayBufferView
  | ({ body: string | ArrayBuffer | ArrayBufferView } & Omit<R2PutOptions, 'onlyIf'>);

/** Objects by key. */
export type BucketSeed = Readonly<Record<string, BucketSeedValue>>;

/** The options of `new Bucket(options)`: checked once, when the bucket is made (see docs/bucket.md). */
export interface BucketOptions {
  /** The storage class of objects written without one. Default 'Standard'. */
  defaultStorageClass?: string;
  /**
   * The Worker's compatibility date ('YYYY-MM-DD'), checked as workerd checks it. Before 2022-06-01
   * put stores an unconvertible value as an empty object; before 2022-08-04 `list` ignores
   * `include`; before 2022-10-31 argument-conversion errors are thrown synchronously; before
   * 2024-09-26 results do not report their class to Object.prototype.toString. Default: today's behaviour.
   */
  compatibilityDate?: string;
  /** The Worker's compatibility flags: any flag workerd knows (others are refused), plus the document's `store_list_honor_include`. */
  compatibilityFlags?: readonly string[];
  /**
   * "Now": a function returning epoch ms, or an object with `now()` (a `ManualClock`), read at each
   * operation; injected delays wait on it. Default `Date.now()` and the global timers, so Vitest's
   * fake timers apply. One clock may be shared by several buckets and a DnsApi.
   */
  clock?: Clock;
  /** Objects to start with (see `Bucket.seed`). */
  seed?: BucketSeed;
  /** Record every call in `bucket.log` from the start. Default false (`bucket.log.start()` later). */
  log?: boolean;
  /**
   * When the bucket's lifecycle rules act: `'exact'` (the default), at the moment a rule's condition
   * holds on the bucket's clock; `'daily'`, at the first 00:00 UTC at or after it, modelling
   * production's "within 24 hours" deterministically.
   */
  lifecycleTiming?: LifecycleTiming;
  /**
   * Where objects and uploads are kept: `new MemoryStorage()` (the default) or
   * `new IndexedDbStorage({ name })`, which keeps them in IndexedDB across buckets and reloads.
   */
  storage?: BucketStorage;
  /**
   * Another binding of the same bucket: this one shares its objects, uploads, configuration, fault
   * rules and call log, and differs only in `compatibilityDate` / `compatibilityFlags` (two Workers
   * of one account bind one bucket, each with its own date). What is the bucket's own
   * (`storage`, `clock`, `defaultStorageClass`, `log`, `seed`) cannot be given with it.
   */
  over?: Bucket;
}

export interface ResolvedOptions {
  readonly defaultStorageClass: string;
  readonly clock: Clock | undefined;
  readonly compat: BucketCompat;
  readonly seed: BucketSeed | undefined;
  readonly log: boolean;
  readonly lifecycleTiming: LifecycleTiming;
  readonly storage: BucketStorage | undefined;
  readonly over: object | undefined;
}

const KNOWN = [
  'defaultStorageClass',
  'compatibilityDate',
  'compatibilityFlags',
  'clock',
  'seed',
  'log',
  'lifecycleTiming',
  'storage',
  'over',
] as const;

/** The options that describe the bucket itself, not one binding of it: refused beside `over`. */
const THE_BUCKETS = ['defaultStorageClass', 'clock', 'seed', 'log', 'lifecycleTiming', 'storage'] as const;

export function resolveOptions(options: unknown): ResolvedOptions {
  if (options === undefined) {
    return {
      defaultStorageClass: 'Standard',
      clock: undefined,
      compat: resolveCompat(undefined, undefined),
      seed: undefined,
      log: false,
      lifecycleTiming: 'exact',
      storage: undefined,
      over: undefined,
    };
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`Bucket options must be an object, got ${describe(options)}.`);
  }
  const o = options as Record<string, unknown>;
  for (const name of Object.keys(o)) {
    if ((KNOWN as readonly string[]).includes(name)) continue;
    const near = KNOWN.find((k) => editDistance(name.toLowerCase(), k.toLowerCase()) <= 3);
    throw new TypeError(
      `Unknown Bucket option '${name}'${near ? ` (did you mean '${near}'?)` : ''}; the options are ${KNOWN.map((k) => `'${k}'`).join(', ')}.`,
    );
  }
  const { defaultStorageClass = 'Standard', clock, seed, log = false, storage, over } = o;
  if (over !== undefined) {
    if (over === null || typeof over !== 'object')
      throw new TypeError(`Bucket option 'over': expected a Bucket, got ${describe(over)}.`);
    const given = THE_BUCKETS.find((name) => o[name] !== undefined);
    if (given) {
      throw new TypeError(
        `Bucket option '${given}' cannot be given with 'over': it is a setting of the bucket, which is the one 'over' names.`,
      );
    }
  }
  if (typeof defaultStorageClass !== 'string') {
    throw new TypeError(
      `Bucket option 'defaultStorageClass': expected a string, got ${describe(defaultStorageClass)}.`,
    );
  }
  const isClock =
    clock === undefined ||
    typeof clock === 'function' ||
    (typeof clock === 'object' && clock !== null && typeof (clock as { now?: unknown }).now === 'function');
  if (!isClock) {
    throw new TypeError(
      `Bucket option 'clock': expected a function returning epoch ms or an object with now(), got ${describe(clock)}.`,
    );
  }
  if (seed !== undefined && (seed === null || typeof seed !== 'object' || Array.isArray(seed))) {
    throw new TypeError(`Bucket option 'seed': expected an object of bodies by key, got ${describe(seed)}.`);
  }
  if (typeof log !== 'boolean') throw new TypeError(`Bucket option 'log': expected a boolean, got ${describe(log)}.`);
  if (storage !== undefined && !(storage instanceof BucketStorage)) {
    throw new TypeError(
      `Bucket option 'storage': expected a MemoryStorage or an IndexedDbStorage, got ${describe(storage)}.`,
    );
  }
  return {
    defaultStorageClass,
    clock: clock as Clock | undefined,
    compat: resolveCompat(o.compatibilityDate, o.compatibilityFlags),
    seed: seed as BucketSeed | undefined,
    log,
    lifecycleTiming: lifecycleTimingOption(o.lifecycleTiming, 'Bucket'),
    storage: storage as BucketStorage | undefined,
    over: over as object | undefined,
  };
}

/** The storage a bucket gets when none is given. */
export const defaultStorage = (): BucketStorage => new MemoryStorage();
