/**
 * Runs one Store scenario step in a process of its own (spec/node/store/sqlite-store.test.ts): the
 * test runner may be a Node without `node:sqlite` (20), and the lock and crash tests need processes.
 * `driver.ts <dir> <command> [args]` prints one JSON line: what the step saw, or the error it got.
 */
import { isDeepStrictEqual } from 'node:util';
import { SqliteStore } from '../../../lib/node/store/sqlite-store.js';

const [dir, command, ...args] = process.argv.slice(2) as [string, string, ...string[]];
const bytes = (s: string) => s;
const text = (v: unknown) => (v === undefined ? null : v);

function report(result: unknown): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function failure(e: unknown): { error: string; message: string } {
  return { error: (e as Error).name, message: (e as Error).message };
}

try {
  const store = SqliteStore.open(dir);
  switch (command) {
    case 'put': {
      // args: key=value pairs, one commit
      store.commit(args.map((kv) => ({ space: 's', key: kv.split('=')[0]!, value: bytes(kv.split('=')[1]!) })));
      report({ ok: true });
      break;
    }
    case 'put-bytes': {
      // args: key=value=bytes, one commit: each record's value and its bytes
      store.commit(
        args.map((kvb) => {
          const [key, value, b] = kvb.split('=') as [string, string, string];
          return { space: 's', key, value, bytes: new TextEncoder().encode(b) };
        }),
      );
      report({ ok: true });
      break;
    }
    case 'bytes':
      try {
        const got = store.bytes('s', args[0]!);
        report({ bytes: got === undefined ? null : new TextDecoder().decode(got) });
      } catch (e) {
        report(failure(e));
      }
      break;
    case 'roundtrip': {
      // Values of every form the Store keeps, committed, the store closed and opened again, read back.
      const shared = { x: 1 };
      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic.self = cyclic;
      const sparse: unknown[] = [1];
      sparse[2] = 3;
      const values: Record<string, unknown> = {
        json: { key: 'k', n: 1.5, list: [1, 'two', null, true, { deep: ['x'] }], empty: {}, none: [] },
        text: 'plain \u0000 nul, \uD800 lone, \u{1F600}',
        negativeZero: { z: -0 },
        notANumber: [Number.NaN, Number.POSITIVE_INFINITY],
        undefinedField: { a: undefined, b: 1 },
        date: { when: new Date(Date.UTC(2031, 0, 1)) },
        map: new Map([['k', [1, 2]]]),
        bytesInside: { b: new Uint8Array([1, 2, 3]) },
        bytesAlone: new Uint8Array([0xff, 0x0f, 0, 9]),
        sparse,
        bigint: { n: 10n },
        sharedTwice: { a: shared, b: shared },
        cyclic,
      };
      store.commit(Object.entries(values).map(([key, value]) => ({ space: 'r', key, value })));
      store.close();
      const again = SqliteStore.open(dir);
      const same: Record<string, boolean> = {};
      const scanned = new Map(again.scan('r').map((e) => [e.key, e.value]));
      for (const [key, value] of Object.entries(values)) {
        const got = again.get('r', key);
        same[key] = isDeepStrictEqual(got, value) && isDeepStrictEqual(scanned.get(key), value);
      }
      const twice = again.get('r', 'sharedTwice') as { a: object; b: object };
      const loop = again.get('r', 'cyclic') as { self: unknown };
      report({ same, sharedKept: twice.a === twice.b, cycleKept: loop.self === loop });
      again.close();
      break;
    }
    case 'spaces': {
      const names = ['a', 'a/x', 'ab', 'abc', 'b', 'b/a'];
      store.commit(names.map((space) => ({ space, key: 'k', value: 1 })));
      store.commit([{ space: 'ab', key: 'k', delete: true }]);
      report({ all: store.spaces(), a: store.spaces('a'), ab: store.spaces('ab'), c: store.spaces('c') });
      break;
    }
    case 'dump':
      report({ entries: store.scan('s').map((e) => [e.key, text(e.value)]) });
      break;
    case 'get':
      try {
        report({ value: text(store.get('s', args[0]!)) });
      } catch (e) {
        report(failure(e));
      }
      break;
    case 'fill': {
      // Writes 64 KiB records until the disk is full; then reads back what it wrote, frees `args[0]`
      // (a file beside DIR taking room), and writes once more.
      const big = new Uint8Array(64 * 1024).fill(7);
      let written = 0;
      let full: { error: string; message: string } | undefined;
      for (; written < 100_000; written++) {
        try {
          store.commit([{ space: 'fill', key: String(written).padStart(6, '0'), value: big }]);
        } catch (e) {
          full = failure(e);
          break;
        }
      }
      const kept = store.scan('fill').length;
      const before = text(store.get('s', 'before'));
      const { rmSync } = await import('node:fs');
      rmSync(args[0]!);
      let after: unknown = 'ok';
      try {
        store.commit([{ space: 's', key: 'after', value: bytes('room again') }]);
      } catch (e) {
        after = failure(e);
      }
      report({ written, full, kept, before, after });
      break;
    }
    case 'hold':
      // Keeps the store open until killed.
      report({ holding: process.pid });
      setInterval(() => {}, 1 << 30);
      break;
    default:
      throw new Error(`unknown command ${command}`);
  }
  if (command !== 'hold') store.close();
} catch (e) {
  report(failure(e));
}
