/**
 * Test support for a Bucket: its fault rules and its call log, wrapped around each surface's entry
 * point into the bucket's layer (every binding method, and every S3 request that reaches R2, goes
 * through one `Invoke`: lib/bucket/layer.ts), never inside its rules. One set of rules and one log
 * per bucket, whichever surface a call came through (each entry says which: `surface`).
 *
 * With no fault and recording off, the wrapper costs one check per call. A fault acts after the
 * call's arguments were converted (a call the runtime refuses never reaches R2, so it never meets
 * a fault) and before the model runs (a failure changes nothing stored).
 */
import type { TimeSource } from '../clock.js';
import { R2_ERRORS, r2Error } from './errors.js';
import type { BucketOperation, ErrorFormat, Invoke, Surface } from './invoke.js';
import type { BucketLayer } from './layer.js';
import { CallLog, copyArgument, partialMatch, show, type CallStore, type LoggedCall } from '../support/call-log.js';
import { ownDouble, type StateOwner, type TestDouble } from '../support/double.js';
import { ObjectReader } from './object-matcher.js';
import { FaultList, keyMatches, type Fault, type FaultSchedule, type Injected } from '../support/faults.js';

export type { BucketOperation, Surface };

/** A bucket fault rule. */
export interface BucketFault extends FaultSchedule {
  /** The operation(s) it catches (R2's names: `put`, `get`, `uploadPart`, …). Default: every operation. */
  op?: BucketOperation | readonly BucketOperation[];
  /**
   * Only calls on this key (a string: exactly; a RegExp: tested). A `delete` of several keys is
   * caught when any of them matches; `list` has no key, so a rule with `key` never catches it,
   * except an S3 ListParts, a `list` of its upload's key.
   */
  key?: string | RegExp;
  /**
   * What a caught call fails with: `'internal'` (R2's 10001), `'rateLimit'` (R2's per-key limit,
   * 10058), an Error (thrown as given), or a function making one. Default `'internal'`, unless
   * `delay` is given alone (then the call is only delayed).
   */
  error?: 'internal' | 'rateLimit' | Error | ((call: { op: BucketOperation; key: string | undefined }) => Error);
}

/** What a bucket call gave back, as the log keeps it (a summary: results are the caller's). */
export type BucketResult =
  | null
  | undefined
  | { key: string; size: number; version: string; uploaded: number }
  | { objects: string[]; truncated: boolean; cursor?: string; delimitedPrefixes: string[] }
  /** S3's ListMultipartUploads, logged as a `list` (lib/bucket/layer.ts). */
  | { uploads: { key: string; uploadId: string }[]; truncated: boolean; delimitedPrefixes: string[] }
  /** S3's ListParts, logged as a `list` of the upload's key: the part numbers listed. */
  | { parts: number[]; truncated: boolean }
  | { key: string; uploadId: string }
  | { partNumber: number; etag: string };

/** A failed call's error, as the log keeps it. */
export interface LoggedError {
  /** As the caller saw it (the binding's errors are plain Errors, as workerd's). */
  readonly name: string;
  readonly message: string;
  /**
   * The error's code as data, taken from the error the model or the surface raised, before the
   * surface phrased it: R2's number for an error of R2 (10001, 10058: the binding's own Error
   * carries it only in its text), S3's code for an S3 answer ('NoSuchUpload', 'PreconditionFailed'),
   * a thrown error's own `code` otherwise; absent when it has none.
   */
  readonly code?: number | string;
}

export interface BucketCall extends LoggedCall {
  /** R2's operation (S3 requests log as the binding operation they perform: lib/bucket/layer.ts). */
  readonly op: BucketOperation;
  /** Where the call came in: the binding (a Worker's `env`) or the S3 API. */
  readonly surface: Surface;
  /** The key as given (an array for a delete of several; undefined for list, except S3's ListParts: the upload's key). */
  readonly key: unknown;
  /** The options as given, copied when the call was made (multipart: uploadId, partNumber, parts). */
  readonly options: unknown;
  /** put / uploadPart: a string value as given; other values described (`[Uint8Array 1024 bytes]`). */
  readonly value?: unknown;
  readonly status: 'pending' | 'ok' | 'error';
  readonly result?: BucketResult;
  readonly error?: LoggedError;
  /** Set when a fault rule acted on the call. */
  readonly injected?: Injected;
}

/** Fields a logged bucket call must have; `options`/`result` match partially, strings may be RegExps. */
export interface BucketCallQuery {
  op?: BucketOperation | readonly BucketOperation[];
  surface?: Surface;
  key?: unknown;
  options?: unknown;
  value?: unknown;
  status?: 'pending' | 'ok' | 'error';
  result?: unknown;
  /** The error's message (a string: exactly; a RegExp: tested) or an object of name/message. */
  error?: unknown;
  /** true: only calls a fault acted on; false: only the others. */
  injected?: boolean;
}

/** What a caught call's key is, as a rule's `key` sees it. */
function keysOf(key: unknown): string[] {
  if (key === undefined) return [];
  return Array.isArray(key) ? key.map(String) : [String(key)];
}

/**
 * What the log keeps of an error: the name and message of the error as shown (`shown`), and the
 * code carried by the error as raised (`raised`): no code is read back out of message text.
 */
function errorOf(shown: unknown, raised: unknown): LoggedError {
  const out: { name: string; message: string; code?: number | string } =
    shown instanceof Error
      ? { name: shown.name, message: shown.message }
      : { name: typeof shown, message: String(shown) };
  const code = codeOf(raised) ?? codeOf(shown);
  if (code !== undefined) out.code = code;
  return Object.freeze(out);
}

function codeOf(e: unknown): number | string | undefined {
  if (e === null || typeof e !== 'object') return undefined;
  const code = (e as { code?: unknown }).code;
  return typeof code === 'number' || typeof code === 'string' ? code : undefined;
}

/** R2's text for each of its codes (its catalogue, lib/bucket/errors.ts), for the outcome column. */
const R2_TEXT = new Map<number, string>(Object.values(R2_ERRORS).map(([code, text]) => [code, text]));

export function matchesCall(e: BucketCall, q: BucketCallQuery): boolean {
  if (q.op !== undefined && !(typeof q.op === 'string' ? q.op === e.op : q.op.includes(e.op))) return false;
  if (q.surface !== undefined && q.surface !== e.surface) return false;
  if (q.key !== undefined && !partialMatch(e.key, q.key)) return false;
  if (q.options !== undefined && !partialMatch(e.options, q.options)) return false;
  if (q.value !== undefined && !partialMatch(e.value, q.value)) return false;
  if (q.status !== undefined && q.status !== e.status) return false;
  if (q.result !== undefined && !partialMatch(e.result, q.result)) return false;
  if (q.error !== undefined) {
    if (!e.error) return false;
    const ok =
      typeof q.error === 'string' || q.error instanceof RegExp
        ? partialMatch(e.error.message, q.error)
        : partialMatch(e.error, q.error);
    if (!ok) return false;
  }
  if (q.injected !== undefined && q.injected !== (e.injected !== undefined)) return false;
  return true;
}

function outcomeCell(e: BucketCall): string {
  if (e.status === 'pending') return 'pending';
  if (e.status === 'error') {
    // The code first, so it survives the column being cut; then R2's text for it (the binding's
    // message repeats the operation and the code around it), or the message as it was shown.
    const { name, message, code } = e.error!;
    if (code === undefined) return `${name}: ${message}`;
    return `${code} ${(typeof code === 'number' && R2_TEXT.get(code)) || message}`;
  }
  const r = e.result;
  if (r === null) return 'null';
  if (r === undefined) return 'ok';
  const more = (r: { truncated: boolean }) => (r.truncated ? ', truncated' : '');
  if ('parts' in r) return `${r.parts.length} parts${more(r)}`;
  if ('uploads' in r)
    return `${r.uploads.length} uploads${r.delimitedPrefixes.length ? `, ${r.delimitedPrefixes.length} prefixes` : ''}${more(r)}`;
  if ('objects' in r)
    return `${r.objects.length} objects${r.delimitedPrefixes.length ? `, ${r.delimitedPrefixes.length} prefixes` : ''}${r.truncated ? ', truncated' : ''}`;
  if ('uploadId' in r && !('size' in r)) return `upload ${r.uploadId.slice(0, 12)}…`;
  if ('partNumber' in r) return `part ${r.partNumber} ${r.etag}`;
  return `${r.size} bytes`;
}

/** One call as a row of the log's table (an S3Api's view of its buckets' logs shows the same). */
export const bucketCallRow = (e: BucketCall): Record<string, string> => ({
  at: new Date(e.at).toISOString(),
  op: e.surface === 'binding' ? e.op : `${e.op} (${e.surface})`,
  key: show(e.key),
  options: show(e.options),
  outcome: outcomeCell(e),
  fault: e.injected ? `#${e.injected.fault}${e.injected.delay ? ` +${e.injected.delay} ms` : ''}` : '',
});

const STATUS = ['pending', 'ok', 'error'] as const;
const PENDING = 0;
const OK = 1;
const ERROR = 2;
/** In `result`: the summary is in the size / version / uploaded columns (an object result). */
const OBJECT = Symbol('object result');

/**
 * The bucket's log, kept as columns of plain values, one array per field: recording a call pushes
 * onto arrays and allocates nothing of its own. Entries held as objects for as long as a test runs
 * were what the garbage collector then kept moving, which cost a small put more than the recording
 * did. Entries are built when the log is read.
 */
class CallColumns implements CallStore<BucketCall> {
  at: number[] = [];
  op: BucketOperation[] = [];
  surface: Surface[] = [];
  key: unknown[] = [];
  options: unknown[] = [];
  /**
   * A put's or uploadPart's value: a string as given (strings are immutable, so keeping one costs
   * nothing); for bytes, their type's constructor, with their length in `valueSize`, named only
   * when the log is read; anything else copied. Copying bytes for the log doubled a small put's
   * allocation, and naming them at call time (two map look-ups) profiled at about 80 ns of a 3 µs
   * put; what was stored is in the bucket (`toHaveObject` checks it).
   */
  value: unknown[] = [];
  valueSize: number[] = [];
  status: number[] = [];
  /** OBJECT (see size / version / uploaded), or the summary itself (null, undefined, a list page, ...). */
  result: unknown[] = [];
  size: number[] = [];
  version: unknown[] = [];
  uploaded: number[] = [];
  error: (LoggedError | undefined)[] = [];
  injected: (Injected | undefined)[] = [];

  /** How many calls the log holds: the columns may be longer (their room is kept across clears). */
  #n = 0;

  get length(): number {
    return this.#n;
  }

  /** Appends a pending call; returns its index. Every column is written, old room reused first. */
  add(at: number, op: BucketOperation, surface: Surface, key: unknown, options: unknown, value: unknown): number {
    const i = this.#n++;
    this.at[i] = at;
    this.op[i] = op;
    this.surface[i] = surface;
    this.key[i] = key;
    this.options[i] = options;
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      this.value[i] = value.constructor;
      this.valueSize[i] = value.byteLength;
    } else {
      this.value[i] = typeof value === 'object' ? copyArgument(value) : value;
      this.valueSize[i] = 0;
    }
    this.status[i] = PENDING;
    this.result[i] = undefined;
    this.size[i] = 0;
    this.version[i] = undefined;
    this.uploaded[i] = 0;
    this.error[i] = undefined;
    this.injected[i] = undefined;
    return i;
  }

  /** Records what call i gave back: an R2Object's key, size, version and upload time, or a summary. */
  ok(i: number, op: BucketOperation, r: unknown): void {
    this.status[i] = OK;
    if (r === null || r === undefined) {
      this.result[i] = r;
      return;
    }
    const o = r as Record<string, unknown>;
    switch (op) {
      case 'list': {
        if ('parts' in o) {
          this.result[i] = {
            parts: (o.parts as { partNumber: number }[]).map((p) => p.partNumber),
            truncated: o.truncated as boolean,
          };
          return;
        }
        if ('uploads' in o) {
          const uploads = (o.uploads as { key: string; uploadId: string }[]).map((u) => ({
            key: u.key,
            uploadId: u.uploadId,
          }));
          this.result[i] = {
            uploads,
            truncated: o.truncated as boolean,
            delimitedPrefixes: [...(o.delimitedPrefixes as string[])],
          };
          return;
        }
        const page = o as {
          objects: { key: string }[];
          truncated: boolean;
          cursor?: string;
          delimitedPrefixes: string[];
        };
        const out: BucketResult = {
          objects: page.objects.map((x) => x.key),
          truncated: page.truncated,
          delimitedPrefixes: [...page.delimitedPrefixes],
        };
        if (page.cursor !== undefined) out.cursor = page.cursor;
        this.result[i] = out;
        return;
      }
      case 'createMultipartUpload':
        this.result[i] = { key: o.key as string, uploadId: o.uploadId as string };
        return;
      case 'uploadPart':
        this.result[i] = { partNumber: o.partNumber as number, etag: o.etag as string };
        return;
      default:
        this.result[i] = OBJECT;
        this.size[i] = o.size as number;
        this.version[i] = o.version;
        // The binding's results carry a Date; the model's objects (S3 calls), epoch ms.
        this.uploaded[i] = typeof o.uploaded === 'number' ? o.uploaded : (o.uploaded as Date).getTime();
    }
  }

  /** Records call i's error: `shown` as the caller got it, `raised` as the model or surface raised it (its code). */
  fail(i: number, shown: unknown, raised: unknown): void {
    this.status[i] = ERROR;
    this.error[i] = errorOf(shown, raised);
  }

  entry(i: number): BucketCall {
    const status = STATUS[this.status[i]!]!;
    const entry: { -readonly [K in keyof BucketCall]: BucketCall[K] } = {
      seq: i + 1,
      at: this.at[i]!,
      op: this.op[i]!,
      surface: this.surface[i]!,
      key: this.key[i],
      options: this.options[i],
      status,
    };
    const value = this.value[i];
    // A function here is a bytes type (copyArgument names a function given as a value '[Function]').
    if (typeof value === 'function') entry.value = `[${value.name} ${this.valueSize[i]} bytes]`;
    else if (value !== undefined) entry.value = value;
    if (status === 'ok') {
      const r = this.result[i];
      entry.result =
        r === OBJECT
          ? {
              key: String(this.key[i]),
              size: this.size[i]!,
              version: this.version[i] as string,
              uploaded: this.uploaded[i]!,
            }
          : (r as BucketResult);
    }
    if (status === 'error') entry.error = this.error[i];
    if (this.injected[i] !== undefined) entry.injected = this.injected[i];
    return entry;
  }

  /**
   * Forgets every call. The columns keep their room (up to KEPT_ROOM calls), so a log cleared
   * between tests does not grow its arrays again each time: regrowing them, in young memory the
   * collector copies, was half of what recording cost a put. What they point at is let go.
   */
  clear(): void {
    const keep = this.#n <= KEPT_ROOM;
    for (const column of [this.key, this.options, this.value, this.result, this.version, this.error, this.injected]) {
      if (keep) column.fill(undefined, 0, this.#n);
      else column.length = 0;
    }
    if (!keep) {
      for (const column of [this.at, this.op, this.surface, this.valueSize, this.status, this.size, this.uploaded])
        column.length = 0;
    }
    this.#n = 0;
  }
}

/** The most calls whose room a cleared log keeps (14 columns of 8 bytes: about 7 MiB). */
const KEPT_ROOM = 65_536;

export class BucketSupport {
  readonly faults: FaultList<BucketFault, { op: BucketOperation; key: unknown }>;
  readonly log: CallLog<BucketCall, BucketCallQuery>;
  private readonly calls = new CallColumns();

  constructor(
    private readonly time: TimeSource,
    recording: boolean,
  ) {
    this.faults = new FaultList<BucketFault, { op: BucketOperation; key: unknown }>(
      (rule, call) => {
        if (rule.op !== undefined && !(typeof rule.op === 'string' ? rule.op === call.op : rule.op.includes(call.op)))
          return false;
        if (rule.key === undefined) return true;
        return keysOf(call.key).some((k) => keyMatches(rule.key, k));
      },
      (rule) => {
        const e = rule.error;
        if (
          e !== undefined &&
          e !== 'internal' &&
          e !== 'rateLimit' &&
          !(e instanceof Error) &&
          typeof e !== 'function'
        ) {
          throw new TypeError(
            `bucket fault: error must be 'internal', 'rateLimit', an Error or a function, got ${show(e)}`,
          );
        }
      },
      (rule) => ({
        op: rule.op === undefined ? '*' : [rule.op].flat().join(','),
        key: rule.key === undefined ? '*' : String(rule.key),
        error:
          rule.error === undefined
            ? rule.delay !== undefined
              ? ''
              : 'internal'
            : typeof rule.error === 'string'
              ? rule.error
              : rule.error instanceof Error
                ? rule.error.message
                : 'fn',
      }),
    );
    this.log = new CallLog<BucketCall, BucketCallQuery>(recording, this.calls, matchesCall, bucketCallRow);
  }

  /** Clears faults and the log (reset, restore). */
  clear(): void {
    this.faults.clear();
    this.log.clear();
  }

  /**
   * A surface's entry point with faults and the log around it. `base` is the surface's invoker
   * (invoke.ts), formatting model errors with `format`; `syncConversionErrors` is the switch it was
   * chosen by. `summary`, when given, turns a body's result into what the log keeps (the S3 view's
   * results are the model's, not the binding's).
   */
  around(
    base: Invoke,
    syncConversionErrors: boolean,
    surface: Surface,
    format: ErrorFormat,
    summary?: (r: unknown) => unknown,
  ): Invoke {
    return (op, key, options, convert, body, value) => {
      if (!this.log.recording) {
        if (!this.faults.active) return base(op, key, options, convert, body);
        return base(op, key, options, convert, (args) => this.faulted(op, key, args, body, -1));
      }
      const i = this.begin(op, surface, key, options, value);
      if (!syncConversionErrors) return this.recorded(i, op, key, convert, body, format, summary);
      let args: unknown;
      try {
        args = convert(); // thrown synchronously, as base would
      } catch (e) {
        this.failed(i, e, e);
        throw e;
      }
      return this.recorded(i, op, key, () => args as never, body, format, summary);
    };
  }

  /**
   * A recorded call, written out rather than made by wrapping `base`'s convert and body in closures
   * (two closures a call, and a promise turn more for a body that is a promise, were most of what
   * the log cost a put). It keeps invoke.ts's rule that a body's promise is awaited, so a call
   * settles in the same turn of the microtask queue with the log on or off.
   */
  private async recorded<A, R>(
    i: number,
    op: BucketOperation,
    key: unknown,
    convert: () => A,
    body: (args: A) => R | Promise<R>,
    format: ErrorFormat,
    summary: ((r: unknown) => unknown) | undefined,
  ): Promise<R> {
    let r: R | Promise<R>;
    try {
      r = this.faulted(op, key, convert(), body, i);
      if (r instanceof Promise) r = await r;
    } catch (e) {
      const shown = format(e);
      this.failed(i, shown, e);
      throw shown;
    }
    this.succeeded(i, op, summary ? summary(r) : r);
    return r;
  }

  /** Runs the body, unless a fault acts on the call first (failing it, delaying it, or both). */
  private faulted<A, R>(
    op: BucketOperation,
    key: unknown,
    args: A,
    body: (args: A) => R | Promise<R>,
    i: number,
  ): R | Promise<R> {
    const fault = this.faults.active ? this.faults.take({ op, key }) : undefined;
    if (!fault) return body(args);
    const failure = failureOf(fault);
    if (i >= 0) this.calls.injected[i] = { fault: fault.id, delay: fault.rule.delay, failed: failure !== undefined };
    const act = () => {
      if (failure) throw failure(op, keysOf(key)[0]);
      return body(args);
    };
    return fault.rule.delay ? this.time.sleep(fault.rule.delay).then(act) : act();
  }

  private succeeded(i: number, op: BucketOperation, r: unknown): void {
    this.calls.ok(i, op, r);
    if (this.log.watched) this.log.done(this.calls.entry(i));
  }

  private failed(i: number, shown: unknown, raised: unknown): void {
    this.calls.fail(i, shown, raised);
    if (this.log.watched) this.log.done(this.calls.entry(i));
  }

  /**
   * Records what the bucket did by itself (a lifecycle deletion: surface `lifecycle`), as a call made
   * and done. Fault rules do not act on it: they stand for failures of calls a client makes.
   */
  note(op: BucketOperation, surface: Surface, key: string | undefined): void {
    if (!this.log.recording) return;
    this.succeeded(this.begin(op, surface, key, undefined, undefined), op, undefined);
  }

  /** Records a call as made: its arguments copied now, so later changes by the caller do not show. */
  private begin(op: BucketOperation, surface: Surface, key: unknown, options: unknown, value: unknown): number {
    return this.calls.add(this.time.now(), op, surface, copyArgument(key), copyArgument(options), value);
  }
}

type Failure = (op: BucketOperation, key: string | undefined) => Error;

function failureOf(fault: Fault<BucketFault>): Failure | undefined {
  const { error, delay } = fault.rule;
  if (error === undefined) return delay !== undefined ? undefined : (op) => r2Error(op, 'internal');
  if (error === 'internal') return (op) => r2Error(op, 'internal');
  if (error === 'rateLimit') return (op) => r2Error(op, 'tooManyRequests');
  if (error instanceof Error) return () => error;
  return (op, key) => error({ op, key });
}

/** The Bucket as a test double (double.ts): its layer holds its objects, its faults and its log. */
export function bucketDouble(bucket: StateOwner, layer: BucketLayer): TestDouble {
  return ownDouble(bucket, layer.support, {
    name: 'Bucket',
    label: 'bucket',
    entry: 'call',
    sameKind: (e, q) => (e as BucketCall).op === (q as BucketCallQuery).op,
    readers: [new ObjectReader((key) => ({ layer, key, label: 'the bucket', onBucket: () => true }))],
  });
}
