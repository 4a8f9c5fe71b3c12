/**
 * Backends: one owner per product per account (moto's model). A product (R2's buckets, DNS's zones,
 * Queues) declares its backend's kind beside its model, as a `BackendKind`; the account makes that
 * backend on first use and holds it, one per kind, in the order made. Every surface reaches a
 * product's state through `host.backend(KIND)`, never through a side table or the test-support
 * registry, and the account's snapshot, restore and reset are its backends', so a product the
 * account gains is captured without anyone naming it.
 *
 * Products talk to each other only through the host's events (`EventTopic`): the emitting product
 * declares the topic, and the listener is attached where the account is made (lib/account/), so no
 * product imports another to notify it.
 *
 * This file names no product: products import it, it imports none of them.
 */
import type { Clock } from '../clock.js';

/** What every backend keeps: its state, captured and brought back as one opaque value. */
export interface Backend {
  /** All of the product's state for the account, as a value that later changes do not touch. */
  snapshot(): object;
  /** Brings back a snapshot this backend took; a TypeError for any other. */
  restore(snapshot: object): void;
  /**
   * Empties what the product holds (records, objects, messages): its containers (zones, buckets,
   * queues) and their settings stay, as the API doubles' `reset()` says.
   */
  reset(): void;
}

/** A product's backend, declared once beside the product: its name (in messages) and how to make it. */
export class BackendKind<B extends Backend> {
  constructor(
    readonly name: string,
    readonly make: (host: BackendHost) => B,
  ) {}
}

/** A kind of event between products, declared by the product that emits it. */
export class EventTopic<T> {
  declare readonly event?: T;
  constructor(readonly name: string) {}
}

/** What a backend knows of the account holding it, and how it finds its neighbours. */
export interface BackendHost {
  readonly id: string;
  readonly name: string;
  /** When the account was made (epoch ms). */
  readonly created: number;
  /** The clock option the account was made with (a backend's own doubles run on it). */
  readonly clock: Clock | undefined;
  /** "Now" by the account's clock. */
  now(): number;
  /** The account's backend of `kind`, made on first use. */
  backend<B extends Backend>(kind: BackendKind<B>): B;
  /** The backend of `kind` if the account has made it: a read that must not make a product the account never used. */
  made<B extends Backend>(kind: BackendKind<B>): B | undefined;
  /** Tells the topic's listeners, in the order attached. */
  emit<T>(topic: EventTopic<T>, event: T): void;
  /** Attaches a listener; returns what detaches it. */
  on<T>(topic: EventTopic<T>, listener: (event: T) => void): () => void;
}

/** The account's backends, captured together: restored only into the host that took it. */
export interface BackendsSnapshot {
  readonly host: Backends;
  readonly states: ReadonlyMap<BackendKind<Backend>, object>;
}

/**
 * The host's backends and event listeners. The account makes one (lib/account/account.ts); its
 * snapshot holds every backend made, and a restore resets a backend made since.
 */
export class Backends {
  readonly #made = new Map<BackendKind<Backend>, Backend>();
  /** Each backend's state when made: what a restore brings back of one made after its snapshot. */
  readonly #initial = new Map<BackendKind<Backend>, object>();
  readonly #listeners = new Map<EventTopic<unknown>, ((event: never) => void)[]>();
  readonly #host: BackendHost;

  constructor(host: BackendHost) {
    this.#host = host;
  }

  backend<B extends Backend>(kind: BackendKind<B>): B {
    let b = this.#made.get(kind) as B | undefined;
    if (!b) {
      b = kind.make(this.#host);
      this.#made.set(kind, b);
      this.#initial.set(kind, b.snapshot());
    }
    return b;
  }

  made<B extends Backend>(kind: BackendKind<B>): B | undefined {
    return this.#made.get(kind) as B | undefined;
  }

  emit<T>(topic: EventTopic<T>, event: T): void {
    const listeners = this.#listeners.get(topic);
    if (listeners) for (const l of listeners) (l as (e: T) => void)(event);
  }

  on<T>(topic: EventTopic<T>, listener: (event: T) => void): () => void {
    let list = this.#listeners.get(topic);
    if (!list) this.#listeners.set(topic, (list = []));
    list.push(listener);
    return () => {
      const i = list.indexOf(listener);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** Every backend made, each its own snapshot. */
  snapshot(): BackendsSnapshot {
    const states = new Map<BackendKind<Backend>, object>();
    for (const [kind, b] of this.#made) states.set(kind, b.snapshot());
    return { host: this, states };
  }

  /** Brings back a snapshot of these backends; one made since it was taken goes back to how it was made. */
  restore(snapshot: BackendsSnapshot): void {
    if (snapshot.host !== this) throw new TypeError('restore: not a snapshot of this account');
    for (const [kind, b] of this.#made) b.restore(snapshot.states.get(kind) ?? this.#initial.get(kind)!);
  }

  reset(): void {
    for (const b of this.#made.values()) b.reset();
  }
}
