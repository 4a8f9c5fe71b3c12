/**
 * Fault rules as values: which calls a rule catches, how many, and what it does to them. One engine
 * for both doubles; each double says what a call is (lib/bucket/bucket-support.ts: operation and key;
 * lib/api/support.ts: method and path) and what an injected failure looks like (its service's error shapes).
 *
 * Rules are checked before the model runs, so a failed call never changes stored state; a delay
 * waits on the double's clock, then lets the call run as usual. The newest rule that catches a call
 * wins (a test's rule beats a suite's default), and counters count only the calls a rule catches.
 */
import { table } from './table.js';
import { seeded } from '../random.js';

/** When a rule acts, among the calls it catches. */
export interface FaultSchedule {
  /**
   * How many calls the rule acts on before it retires. Default 1, or `Infinity` (every call) when
   * `probability` is given. `Infinity` makes a rule act on every call it catches until removed.
   */
  times?: number;
  /** Let this many caught calls through untouched first. Default 0. */
  after?: number;
  /** Act on each caught call with this probability (0 to 1), drawn from a generator seeded by `seed`. */
  probability?: number;
  /** Seed of the `probability` draws: the same seed gives the same sequence, run after run. Default 1. */
  seed?: number;
  /** Wait this many ms (on the double's clock) before the call runs or fails. */
  delay?: number;
}

/** What a rule did to one call, as the call log records it. */
export interface Injected {
  readonly fault: number;
  readonly delay?: number;
  readonly failed: boolean;
}

/** A rule in a double's list. */
export interface Fault<Rule> {
  readonly id: number;
  /** The rule as added. */
  readonly rule: Readonly<Rule>;
  /** Calls it caught so far (acted on or let through). */
  readonly seen: number;
  /** Calls it acted on. */
  readonly hits: number;
  /** How many more calls it will act on (Infinity for an unbounded rule). */
  readonly remaining: number;
  /** Takes the rule out of the list. */
  remove(): void;
}

class Entry<Rule extends FaultSchedule> implements Fault<Rule> {
  seen = 0;
  hits = 0;
  readonly #times: number;
  readonly #after: number;
  readonly #draw: (() => number) | undefined;
  readonly #owner: FaultList<Rule, unknown>;

  constructor(
    readonly id: number,
    readonly rule: Readonly<Rule>,
    owner: FaultList<Rule, unknown>,
  ) {
    this.#owner = owner;
    const p = rule.probability;
    if (p !== undefined && !(p >= 0 && p <= 1))
      throw new RangeError(`fault: probability must be between 0 and 1, got ${p}`);
    this.#times = rule.times ?? (p === undefined ? 1 : Infinity);
    if (!(this.#times >= 0)) throw new RangeError(`fault: times must be a non-negative number, got ${rule.times}`);
    this.#after = rule.after ?? 0;
    if (rule.delay !== undefined && !(rule.delay >= 0))
      throw new RangeError(`fault: delay must be a non-negative number, got ${rule.delay}`);
    this.#draw = p === undefined ? undefined : seeded(rule.seed ?? 1);
  }

  get remaining(): number {
    return this.#times - this.hits;
  }

  remove(): void {
    this.#owner.remove(this);
  }

  /** Counts a caught call; true when the rule acts on it. */
  take(): boolean {
    this.seen++;
    if (this.seen <= this.#after) return false;
    if (this.#draw && !(this.#draw() < this.rule.probability!)) return false;
    this.hits++;
    return true;
  }
}

let ids = 0;

/**
 * A double's fault rules. `Rule` is the double's rule shape; `Call` what a call looks like to
 * `catches` (the double's own matching).
 */
export class FaultList<Rule extends FaultSchedule, Call> {
  #entries: Entry<Rule>[] = [];

  constructor(
    private readonly catches: (rule: Rule, call: Call) => boolean,
    /** Checks a rule when added (bad input is refused at once, not at the call it was meant for). */
    private readonly check: (rule: Rule) => void = () => {},
    /** One line per rule for `table()`: the double's words for what it catches and does. */
    private readonly describe: (rule: Rule) => Record<string, string> = () => ({}),
  ) {}

  /** Adds a rule; the newest rule catching a call acts on it. */
  add(rule: Rule): Fault<Rule> {
    this.check(rule);
    const entry = new Entry<Rule>(++ids, Object.freeze({ ...rule }), this as FaultList<Rule, unknown>);
    this.#entries.push(entry);
    return entry;
  }

  /** The rules still active, oldest first. */
  list(): Fault<Rule>[] {
    return this.#entries.filter((e) => e.remaining > 0);
  }

  /** Takes a rule out; false when it was not in the list. */
  remove(fault: Fault<Rule>): boolean {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e !== fault);
    return this.#entries.length !== before;
  }

  /** Takes every rule out. */
  clear(): void {
    this.#entries = [];
  }

  /** Whether any rule is active (the double's fast path skips everything else when none is). */
  get active(): boolean {
    return this.#entries.length > 0;
  }

  /** The rule that acts on this call, if any: the newest one catching it that still has calls left. */
  take(call: Call): Fault<Rule> | undefined {
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const e = this.#entries[i]!;
      if (e.remaining <= 0 || !this.catches(e.rule, call)) continue;
      if (e.take()) {
        if (e.remaining <= 0) this.#entries.splice(i, 1); // spent: retired
        return e;
      }
    }
    return undefined;
  }

  /** The active rules as a readable table. */
  table(): string {
    const rows = this.list().map((f) => ({
      id: String(f.id),
      ...this.describe(f.rule),
      delay: f.rule.delay ? `${f.rule.delay} ms` : '',
      after: f.rule.after ? String(f.rule.after) : '',
      probability: f.rule.probability === undefined ? '' : `${f.rule.probability} (seed ${f.rule.seed ?? 1})`,
      hits: String(f.hits),
      remaining: f.remaining === Infinity ? 'every' : String(f.remaining),
    }));
    return rows.length ? table(rows) : '(no faults)';
  }
}

/** Whether a key matches a rule's `key` (a string: exact key; a RegExp: tested; absent: any). */
export function keyMatches(want: string | RegExp | undefined, key: string): boolean {
  if (want === undefined) return true;
  if (typeof want === 'string') return want === key;
  want.lastIndex = 0; // a /g or /y RegExp keeps state between tests
  return want.test(key);
}
