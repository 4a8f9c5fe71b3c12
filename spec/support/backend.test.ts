/**
 * The account's backends (lib/support/backend.ts): one per product kind, made on first use, captured,
 * restored and reset together, and the events between products.
 */
import { describe, expect, it } from 'vitest';
import { Backends, BackendKind, EventTopic, type Backend, type BackendHost } from '../../lib/support/backend.js';

/** A product holding one counter, as a backend does: its state a value, its snapshot that value. */
class Counter implements Backend {
  count = 0;
  constructor(readonly host: BackendHost) {}
  snapshot(): object {
    return { count: this.count };
  }
  restore(s: object): void {
    this.count = (s as { count: number }).count;
  }
  reset(): void {
    this.count = 0;
  }
}

const host = (): { host: BackendHost; backends: Backends } => {
  const h: BackendHost = {
    id: 'a'.repeat(32),
    name: 'test',
    created: 0,
    clock: undefined,
    now: () => 0,
    backend: (k) => backends.backend(k),
    made: (k) => backends.made(k),
    emit: (t, e) => backends.emit(t, e),
    on: (t, l) => backends.on(t, l),
  };
  const backends = new Backends(h);
  return { host: h, backends };
};

describe('Backends', () => {
  const A = new BackendKind('a', (h) => new Counter(h));
  const B = new BackendKind('b', (h) => new Counter(h));

  it('makes one backend a kind, on first use, over the host', () => {
    const { host: h } = host();
    expect(h.made(A)).toBeUndefined();
    const a = h.backend(A);
    expect(h.backend(A)).toBe(a);
    expect(h.made(A)).toBe(a);
    expect(a.host).toBe(h);
    expect(h.backend(B)).not.toBe(a);
  });

  it('restores every backend a snapshot holds, and resets one made since', () => {
    const { host: h, backends } = host();
    h.backend(A).count = 3;
    const snap = backends.snapshot();
    h.backend(A).count = 5;
    h.backend(B).count = 7;
    backends.restore(snap);
    expect(h.backend(A).count).toBe(3);
    expect(h.backend(B).count).toBe(0);
    backends.reset();
    expect(h.backend(A).count).toBe(0);
  });

  it("refuses another account's snapshot", () => {
    const one = host();
    const other = host();
    one.host.backend(A);
    expect(() => other.backends.restore(one.backends.snapshot())).toThrow(TypeError);
  });

  it('tells a topic’s listeners in the order attached, until detached', () => {
    const { host: h } = host();
    const changed = new EventTopic<string>('changed');
    const heard: string[] = [];
    const off = h.on(changed, (e) => heard.push(`1:${e}`));
    h.on(changed, (e) => heard.push(`2:${e}`));
    h.emit(changed, 'x');
    off();
    h.emit(changed, 'y');
    h.emit(new EventTopic<string>('other'), 'z');
    expect(heard).toEqual(['1:x', '2:x', '2:y']);
  });
});
