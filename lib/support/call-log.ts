/**
 * The call log: what a double was asked, in order. One home for both doubles; each double says what
 * an entry holds (lib/bucket/bucket-support.ts, lib/api/support.ts) and how it reads in a table.
 *
 * Off by default: with recording off the double never builds an entry (one boolean read per call).
 * When on, arguments are copied when the call is made, so a caller mutating its options later does
 * not rewrite history; formatting waits until the log is read.
 */
import { show, table } from './table.js';

/** What every entry has. */
export interface LoggedCall {
  /** Position in the double's log, from 1. */
  readonly seq: number;
  /** When the call was made, on the double's clock (epoch ms). */
  readonly at: number;
}

/** A filter: a predicate, or fields an entry must have (see `CallLog#filter`). */
export type CallFilter<E, Q> = Q | ((entry: E) => boolean);

/**
 * Where a log's entries live. Reading builds entries (`entry(i)`), so a double may keep them in
 * whatever form is cheapest to hold while tests run (the bucket's are columns of plain values).
 */
export interface CallStore<E> {
  readonly length: number;
  /** Entry i (from 0) as the log shows it. */
  entry(i: number): E;
  clear(): void;
}

/** The plain store: entries kept as the objects they are (DNS requests: few, and large anyway). */
export class ArrayStore<E> implements CallStore<E> {
  #entries: E[] = [];
  get length(): number {
    return this.#entries.length;
  }
  push(e: E): E {
    this.#entries.push(e);
    return e;
  }
  entry(i: number): E {
    return this.#entries[i]!;
  }
  clear(): void {
    this.#entries = [];
  }
}

/** A double's call log: off until `start()` (or the `log` option), filtered by `calls(query)`, printed as a table by `toString()`. */
export class CallLog<E extends LoggedCall, Q extends object = Partial<E>> {
  #recording: boolean;
  #watchers: ((entry: E) => void)[] = [];

  constructor(
    recording: boolean,
    private readonly store: CallStore<E>,
    private readonly matches: (entry: E, query: Q) => boolean,
    private readonly row: (entry: E) => Record<string, string>,
  ) {
    this.#recording = recording;
  }

  /** Whether calls are being recorded. */
  get recording(): boolean {
    return this.#recording;
  }

  /** Starts recording (calls made before are not known). */
  start(): this {
    this.#recording = true;
    return this;
  }

  /** Stops recording; what was recorded stays until `clear()`. */
  stop(): this {
    this.#recording = false;
    return this;
  }

  /** Forgets every entry (the next one is #1 again). */
  clear(): void {
    this.store.clear();
  }

  /** @internal Whether anyone watches (the double then builds the entry to hand over). */
  get watched(): boolean {
    return this.#watchers.length > 0;
  }

  /** @internal Tells the watchers an entry has its outcome. */
  done(entry: E): void {
    for (const w of this.#watchers) w(entry);
  }

  /**
   * Calls `fn` with each entry once its outcome is known (while recording); returns a function that
   * stops it. (`dns serve --log` prints a line per request this way.)
   */
  watch(fn: (entry: E) => void): () => void {
    this.#watchers.push(fn);
    return () => {
      this.#watchers = this.#watchers.filter((w) => w !== fn);
    };
  }

  /** Every entry, in call order (the bucket's are built afresh at each read). */
  all(): E[] {
    const out: E[] = [];
    for (let i = 0; i < this.store.length; i++) out.push(this.store.entry(i));
    return out;
  }

  get length(): number {
    return this.store.length;
  }

  /** The entries a filter keeps, in call order. */
  filter(f: CallFilter<E, Q>): E[] {
    const keep = typeof f === 'function' ? (f as (e: E) => boolean) : (e: E) => this.matches(e, f as Q);
    return this.all().filter(keep);
  }

  /** The last entry (a filter picks among those it keeps). */
  last(f?: CallFilter<E, Q>): E | undefined {
    if (f === undefined) return this.store.length ? this.store.entry(this.store.length - 1) : undefined;
    const list = this.filter(f);
    return list[list.length - 1];
  }

  /** The entries (or those a filter keeps) as a readable table. */
  table(f?: CallFilter<E, Q>): string {
    const list = f === undefined ? this.all() : this.filter(f);
    if (list.length === 0) return this.#recording ? '(no calls)' : '(no calls: recording is off)';
    return table(list.map((e) => ({ '#': String(e.seq), ...this.row(e) })));
  }

  /** The log as a table, one call a line. */
  toString(): string {
    return this.table();
  }
}

/**
 * A copy of what a caller passed, taken at call time: plain objects and arrays copied deeply, bytes
 * copied, Dates and Headers turned into values a diff can show; functions and streams named.
 */
export function copyArgument(v: unknown, depth = 0): unknown {
  if (v === null || typeof v !== 'object') {
    return typeof v === 'function' ? '[Function]' : v;
  }
  if (depth > 8) return '[…]';
  if (v instanceof Date) return new Date(v.getTime());
  if (typeof Headers !== 'undefined' && v instanceof Headers) {
    // forEach, not Object.fromEntries(v): Headers is iterable only under the DOM.Iterable lib, and
    // spec/types/module-import compiles these sources without it, as a user's Worker project may.
    const headers: Record<string, string> = {};
    v.forEach((value, name) => (headers[name] = value));
    return { headers };
  }
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  if (v instanceof ArrayBuffer) return new Uint8Array(v.slice(0));
  if (typeof ReadableStream !== 'undefined' && v instanceof ReadableStream) return '[ReadableStream]';
  if (typeof Blob !== 'undefined' && v instanceof Blob) return `[Blob ${v.size} bytes]`;
  if (Array.isArray(v)) return Object.freeze(v.map((x) => copyArgument(x, depth + 1)));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyArgument((v as Record<string, unknown>)[k], depth + 1);
  return Object.freeze(out);
}

/**
 * Whether `actual` has everything `expected` names: objects recursively (extra fields allowed),
 * arrays element by element and of the same length, a RegExp tests a string, bytes compare as bytes.
 */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (expected instanceof RegExp) {
    if (typeof actual !== 'string') return false;
    expected.lastIndex = 0;
    return expected.test(actual);
  }
  if (expected === null || typeof expected !== 'object') return Object.is(actual, expected);
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual);
  if (expected instanceof Date) return actual instanceof Date && actual.getTime() === expected.getTime();
  if (ArrayBuffer.isView(expected) || expected instanceof ArrayBuffer) {
    const a = bytesOf(actual);
    const b = bytesOf(expected)!;
    return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (actual === null || typeof actual !== 'object') return false;
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((x, i) => partialMatch(actual[i], x))
    );
  }
  return Object.keys(expected).every((k) =>
    partialMatch((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k]),
  );
}

/** Vitest's and Jest's asymmetric matchers (`expect.any(String)`, `expect.stringContaining`, …). */
function isAsymmetric(v: object): v is { asymmetricMatch(x: unknown): boolean } {
  return typeof (v as { asymmetricMatch?: unknown }).asymmetricMatch === 'function';
}

export function bytesOf(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return undefined;
}

export { show };
