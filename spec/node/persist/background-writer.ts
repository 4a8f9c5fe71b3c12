/**
 * The child of background-commit.test.ts, on a Node with node:sqlite. `write <dir>`: a persisted
 * account with a queue, attached as a server attaches it but with compaction's idle wait at an
 * hour, then a message sent outside any request (as a delivery settles, on no request's commit);
 * it prints `sent`, waits a moment and kills itself, so only a commit the change itself caused can
 * have kept it. `check <dir>`: loads DIR and prints the queue's messages held, as one JSON line.
 */
import { Account } from '../../../lib/account/account.js';
import { accountState } from '../../../lib/account/state.js';
import { Bucket } from '../../../lib/bucket/bucket.js';
import { Persistence } from '../../../lib/node/persist/persistence.js';
import { QUEUES } from '../../../lib/queue/backend.js';

const [command, dir] = process.argv.slice(2) as [string, string];
const persist = await Persistence.open(dir, { interval: 3_600_000 });
const saved = persist.savedAccount();
const account = new Account(saved ? { id: saved.id, name: saved.name, created: saved.created } : {});
await persist.load({ account }, (storage, options) => new Bucket({ ...options, storage }));
const queues = accountState(account).backend(QUEUES);

if (command === 'write') {
  const entry = queues.entry('jobs') ?? queues.add('jobs');
  persist.attach({ account });
  await persist.commit();
  await entry.queue.send({ job: 1 });
  process.stdout.write('sent\n');
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 200);
} else {
  const held = queues.entry('jobs')?.state.image() ?? [];
  process.stdout.write(`${JSON.stringify(held.map((h) => (h.body as { type: string }).type))}\n`);
  process.exit(0);
}
