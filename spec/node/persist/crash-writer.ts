/**
 * The child of the crash test (crash.test.ts), on a Node with node:sqlite. `write <dir> <sync>`: puts
 * objects in a loop through a Bucket on StoreStorage over the SQLite Store in DIR, printing each key
 * once its put has resolved, until it is killed. `check <dir>`: prints, as one JSON line, every object
 * listed, with whether its bytes, size and md5 etag are the ones written.
 */
import { createHash } from 'node:crypto';
import { Bucket } from '../../../lib/bucket.js';
import { StoreStorage } from '../../../lib/bucket/store-storage.js';
import { SqliteStore } from '../../../lib/node/store/sqlite-store.js';
import { crashBody, crashKey } from './crash-bodies.js';

const [command, dir, sync] = process.argv.slice(2) as [string, string, string | undefined];
const store = SqliteStore.open(dir, { sync: sync === 'full' ? 'full' : 'normal' });
const bucket = new Bucket({ storage: new StoreStorage({ store, name: 'crash' }) });

if (command === 'write') {
  for (let i = 0; ; i++) {
    await bucket.put(crashKey(i), crashBody(i));
    process.stdout.write(`${crashKey(i)}\n`);
  }
} else {
  const listed: { key: string; whole: boolean }[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list(cursor === undefined ? {} : { cursor });
    for (const o of page.objects) {
      const got = await bucket.get(o.key);
      const bytes = new Uint8Array(await got!.arrayBuffer());
      const want = crashBody(listed.length);
      const whole =
        o.key === crashKey(listed.length) &&
        got!.size === want.byteLength &&
        Buffer.compare(bytes, want) === 0 &&
        got!.etag === createHash('md5').update(bytes).digest('hex');
      listed.push({ key: o.key, whole });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  process.stdout.write(`${JSON.stringify(listed)}\n`);
  store.close();
}
