import { afterAll, beforeAll, describe } from '../runner.js';
import { registerCase } from '../register.js';
import type { QueueDifferenceId } from './differences.js';

/**
 * A body as the suite describes it to a target: JSON cannot carry bytes, Dates, Maps or undefined,
 * and a Worker in workerd receives the description over HTTP, so the suite never sends a value
 * itself. `fromWire` (below) makes the value; it is written without closures so a target can ship
 * its source into a Worker (`fromWire.toString()`).
 */
export type WireBody =
  | { json: unknown }
  | { text: string }
  | { repeat: [string, number] }
  | { bytes: number[] }
  | { arrayBuffer: number[] }
  /** A view over part of a larger buffer: `bytes` from `offset`, `length` of them, as a DataView. */
  | { view: [number[], number, number] }
  | { date: number }
  | { map: [unknown, unknown][] }
  | { undefined: true }
  | { bigint: string };

/** What a consumer saw of a body, as `describeBody` (below) tells it: its kind and a JSON value. */
export interface SeenBody {
  kind: string;
  value: unknown;
}

/** A message as the consumer saw it in a batch. */
export interface SeenMessage {
  id: string;
  /** epoch ms */
  timestamp: number;
  attempts: number;
  body: SeenBody;
}

/** A batch as the consumer saw it. */
export interface SeenBatch {
  queue: string;
  messages: SeenMessage[];
}

/** What the consumer does with a batch, in order: calls on messages (by index) and on the batch. */
export type ConsumerOp = ['ack', number] | ['retry', number, number?] | ['ackAll'] | ['retryAll', number?] | ['throw'];

/** A queue the suite uses, with its consumer's settings (each test has its own queues). */
export interface QueueDeclaration {
  name: string;
  /** The consumer's settings; one left out takes the target's default. */
  consumer: {
    maxBatchSize?: number;
    maxBatchTimeout?: number;
    maxRetries?: number;
    retryDelay?: number;
    deadLetterQueue?: string;
  };
  /** The producer binding's `delivery_delay`, in seconds. */
  deliveryDelay?: number;
}

/** A send's outcome as the Worker saw it. */
export type SendOutcome = { ok: true; result: unknown } | { ok: false; ctor: string; name: string; message: string };

/** A running target of the Queues suite: producers to send with, and what its consumer saw. */
export interface QueueSession {
  /** Sends one message through the producer of `queue`. */
  send(queue: string, body: WireBody, options?: { contentType?: string; delaySeconds?: number }): Promise<SendOutcome>;
  /** Sends a batch through the producer of `queue`. */
  sendBatch(
    queue: string,
    messages: { body: WireBody; contentType?: string; delaySeconds?: number }[],
    options?: { delaySeconds?: number },
  ): Promise<SendOutcome>;
  /** Lets `seconds` pass (the double: its clock; a real runtime: real time) and waits for the deliveries then due. */
  elapse(seconds: number): Promise<void>;
  /** Stops the target. */
  close(): Promise<void>;
}

/** Something the Queues conformance suite runs against. */
export interface QueueTarget {
  name: string;
  /** The known differences this target shows (differences.ts). */
  differences?: readonly QueueDifferenceId[];
  /** Per-test timeout. */
  timeout?: number;
  /**
   * Builds every queue the suite declares, producer and consumer; the consumer reports each batch
   * to `onBatch` and does what it answers.
   */
  open(queues: readonly QueueDeclaration[], onBatch: (batch: SeenBatch) => ConsumerOp[]): Promise<QueueSession>;
}

/** The body a wire description stands for. Self-contained: a target may ship its source. */
export function fromWire(w: WireBody): unknown {
  const o = w as Record<string, unknown>;
  if ('json' in o) return o.json;
  if ('text' in o) return o.text;
  if ('repeat' in o) return (o.repeat as [string, number])[0].repeat((o.repeat as [string, number])[1]);
  if ('bytes' in o) return new Uint8Array(o.bytes as number[]);
  if ('arrayBuffer' in o) return new Uint8Array(o.arrayBuffer as number[]).buffer;
  if ('view' in o) {
    const [bytes, offset, length] = o.view as [number[], number, number];
    return new DataView(new Uint8Array(bytes).buffer, offset, length);
  }
  if ('date' in o) return new Date(o.date as number);
  if ('map' in o) return new Map(o.map as [unknown, unknown][]);
  if ('bigint' in o) return BigInt(o.bigint as string);
  return undefined;
}

/** How a consumer tells a body back. Self-contained, like `fromWire`. */
export function describeBody(v: unknown): SeenBody {
  if (v instanceof Uint8Array) return { kind: 'Uint8Array', value: Array.from(v) };
  if (v instanceof ArrayBuffer) return { kind: 'ArrayBuffer', value: Array.from(new Uint8Array(v)) };
  if (v instanceof Date) return { kind: 'Date', value: v.getTime() };
  if (v instanceof Map) return { kind: 'Map', value: Array.from(v.entries()) };
  if (typeof v === 'string') return { kind: 'string', value: v.length > 64 ? `${v.slice(0, 8)}… (${v.length})` : v };
  return { kind: typeof v, value: v };
}

/** Options of one Queues conformance test: what it needs of a target, and the differences it may show. */
interface TestOptions {
  difference?: QueueDifferenceId;
}

/** What a Queues conformance group defines its tests with. */
export interface GroupContext {
  /** The session, once open. */
  session(): QueueSession;
  /** Batches the consumer of `queue` has seen so far. */
  seen(queue: string): SeenBatch[];
  /** What the consumer of `queue` does with each batch (default: nothing, so the batch is acked). */
  consumer(queue: string, plan: (batch: SeenBatch, index: number) => ConsumerOp[]): void;
  /** Registers a test; it is expected to fail on targets that declare its difference. */
  test(name: string, fn: () => Promise<void>, options?: TestOptions): void;
}

/** A named group of Queues conformance tests (select groups with the target's `groups`). */
export interface Group {
  name: string;
  queues: readonly QueueDeclaration[];
  /** Registers the group's tests. */
  define(t: GroupContext): void;
}

export const defineGroup = (
  name: string,
  queues: readonly QueueDeclaration[],
  define: (t: GroupContext) => void,
): Group => ({ name, queues, define });

export function runGroups(groups: readonly Group[], target: QueueTarget): void {
  const shown = new Set(target.differences ?? []);
  const seen = new Map<string, SeenBatch[]>();
  const plans = new Map<string, (batch: SeenBatch, index: number) => ConsumerOp[]>();
  let session: QueueSession | undefined;
  const ctx: GroupContext = {
    session: () => {
      if (!session) throw new Error('queue conformance: the target did not open');
      return session;
    },
    seen: (queue) => seen.get(queue) ?? [],
    consumer: (queue, plan) => void plans.set(queue, plan),
    test(name, fn, options = {}) {
      registerCase(name, fn, options, shown, target.timeout);
    },
  };
  describe(`queue conformance on ${target.name}`, () => {
    beforeAll(async () => {
      session = await target.open(
        groups.flatMap((g) => g.queues),
        (batch) => {
          const list = seen.get(batch.queue) ?? [];
          list.push(batch);
          seen.set(batch.queue, list);
          return plans.get(batch.queue)?.(batch, list.length - 1) ?? [];
        },
      );
    }, 60_000);
    afterAll(async () => {
      await session?.close();
    });
    for (const g of groups) describe(g.name, () => g.define(ctx));
  });
}
