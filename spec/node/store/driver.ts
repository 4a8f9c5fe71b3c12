/**
 * Runs one Store scenario step in a process of its own (spec/node/store/sqlite-store.test.ts): the
 * test runner may be a Node without `node:sqlite` (20), and the lock and crash tests need processes.
 * `driver.ts <dir> <command> [args]` prints one JSON line: what the step saw, or the error it got.
 */
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
