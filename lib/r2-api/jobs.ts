/**
 * R2's bucket jobs over the API (cloudflare/api-schemas 2026-08-14): the prefix-delete and Empty
 * Bucket jobs `DELETE …/objects?prefix=` makes (objects.ts calls `startPrefixDelete`), and
 *
 *   GET /accounts/{a}/r2/buckets/{b}/jobs            r2-list-bucket-jobs (`jobType`, `status`, `maxKeys`, `continuationToken`)
 *   GET /accounts/{a}/r2/buckets/{b}/jobs/{job_id}   r2-get-bucket-job
 *
 * A job is the bucket's (lib/bucket/jobs.ts): its first batch runs in the request that makes it (a
 * job of up to 1,000 objects answers `COMPLETED`), the rest one batch every 100 ms of the account's
 * clock (a `ManualClock` moves it with `advance`), each batch a call of the bucket layer logged as
 * `delete` (options `{ operation: 'prefixDelete', job }`) and caught by its fault rules: a batch a
 * fault fails marks the job `FAILED`. A running job whose driver is gone (a restore brought it
 * back, a `--persist` server restarted) is picked up again when the bucket's jobs are next read.
 *
 * Answers where the schema has no text, our choices (docs/conformance.md, R2 API choices): an
 * unknown job is 404 10040 "The specified job does not exist."; a `jobType` other than
 * `prefixDelete`, a `status` outside the enum or without `jobType`, a `maxKeys` outside 0–1000 or a
 * token this API did not give are 400 1004 (the router's bad query parameter). Jobs are listed
 * oldest first; `maxKeys` defaults to 1,000.
 */
import { ok } from '../api/envelope.js';
import { apiErrors, fail } from '../api/errors.js';
import type { Handler, RouteParams } from '../api/router.js';
import type { BucketConfig } from '../bucket/config.js';
import { bucketLayer } from '../bucket/internal.js';
import { isActive, JOB_PACE_MS, MAX_ACTIVE_JOBS, type BucketJob, type JobStatus } from '../bucket/jobs.js';
import { after, type BucketLayer } from '../bucket/layer.js';
import { timeSource } from '../clock.js';
import type { R2Table } from './routes.js';
import { namedBucket, type R2Service } from './service.js';
import { settingCall } from './settings.js';

const jobErrors = {
  /**
   * 409 10034, the schema's example text: "A bucket cannot be emptied while event notifications are
   * configured"; the double refuses a prefix delete on the same ground (our reading).
   */
  notificationRules: (bucket: string, account: string) =>
    fail(
      409,
      10034,
      `Remove all event notification rules from bucket (${bucket}) before emptying it (account ${account}).`,
    ),
  /** 429 10058, the schema's example text: too many active jobs on the bucket. */
  tooManyJobs: () =>
    fail(
      429,
      10058,
      'Too many concurrent prefix delete jobs for this bucket. Please wait for existing jobs to complete.',
    ),
  /** placeholder: a job id the bucket does not have. Not established. */
  noSuchJob: () => fail(404, 10040, 'The specified job does not exist.'),
};

const STATUSES: ReadonlySet<string> = new Set(['ENQUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED']);

/** A job as the API shows it (`r2_r2_bucket_job`). */
export function presentJob(job: BucketJob) {
  return {
    id: job.id,
    jobType: 'prefixDelete',
    prefixDelete: { prefix: job.prefix, deletedObjects: job.deleted, isBucketClear: job.prefix === '' },
    startTime: new Date(job.start).toISOString(),
    ...(job.end !== undefined ? { endTime: new Date(job.end).toISOString() } : {}),
    status: job.status,
  };
}

/** The jobs whose batches are under way here, by bucket: the rest of a running job is picked up on reading. */
const driving = new WeakMap<BucketLayer, Set<string>>();

/** Runs a job's remaining batches, one every JOB_PACE_MS of the account's clock, until it is no longer running. */
function drive(layer: BucketLayer, sleep: (ms: number) => Promise<void>, now: () => number, job: BucketJob): void {
  let ids = driving.get(layer);
  if (!ids) driving.set(layer, (ids = new Set()));
  if (ids.has(job.id)) return;
  ids.add(job.id);
  const running = ids;
  void (async () => {
    try {
      for (;;) {
        await sleep(JOB_PACE_MS);
        let step: BucketJob | undefined;
        try {
          await layer.viaApi('delete', job.prefix, () => after(layer.jobStep(job.id), (j) => void (step = j)), {
            operation: 'prefixDelete',
            job: job.id,
          });
        } catch {
          await layer.changeJob(job.id, (j) => ({ ...j, status: 'FAILED', end: now() }));
          return;
        }
        if (!step || step.status !== 'RUNNING') return;
      }
    } finally {
      running.delete(job.id);
    }
  })();
}

/** The account's clock: the sleep and the "now" the jobs of `params`' account run on. */
function clockOf(svc: R2Service, params: RouteParams) {
  const state = params.account ?? svc.account;
  const source = timeSource(state.clock);
  return { sleep: (ms: number) => source.sleep(ms), now: () => source.now() };
}

/**
 * Makes a prefix-delete job on the bucket (`prefix` '' empties it) and runs its first batch: the
 * job as the API shows it. Refused while the bucket has notification rules (10034) or
 * MAX_ACTIVE_JOBS active jobs (10058), judged in the same transaction that makes the job.
 */
export async function startPrefixDelete(
  svc: R2Service,
  params: RouteParams,
  bucketName: string,
  layer: BucketLayer,
  prefix: string,
): Promise<ReturnType<typeof presentJob>> {
  const account = (params.account ?? svc.account).id;
  const clock = clockOf(svc, params);
  const id = crypto.randomUUID();
  const admit = (c: BucketConfig): BucketJob => {
    if (c.notifications.length !== 0) throw jobErrors.notificationRules(bucketName, account);
    if (c.jobs.filter(isActive).length >= MAX_ACTIVE_JOBS) throw jobErrors.tooManyJobs();
    return { id, prefix, start: clock.now(), status: 'RUNNING', deleted: 0 };
  };
  let job: BucketJob | undefined;
  // The log keeps the call (its prefix and job), not the job: a delete's result is none.
  await settingCall(
    layer.viaApi('delete', prefix, () => after(layer.jobStep(id, admit), (j) => void (job = j)), {
      operation: 'prefixDelete',
      job: id,
    }),
  );
  if (job!.status === 'RUNNING') drive(layer, clock.sleep, clock.now, job!);
  return presentJob(job!);
}

/** The bucket's jobs now; a running one no batch is under way for is driven again. */
async function jobsOf(svc: R2Service, params: RouteParams, layer: BucketLayer): Promise<readonly BucketJob[]> {
  const jobs = await layer.jobs();
  const clock = clockOf(svc, params);
  for (const j of jobs) if (j.status === 'RUNNING') drive(layer, clock.sleep, clock.now, j);
  return jobs;
}

/** The token: the last job id of the page, as the schema's example token holds it (`{"v":1,"startAfter":…}`, base64). */
const encodeToken = (after: string) => btoa(JSON.stringify({ v: 1, startAfter: after }));
function decodeToken(raw: string): string {
  try {
    const v = JSON.parse(atob(raw)) as { startAfter?: unknown };
    if (typeof v?.startAfter === 'string') return v.startAfter;
  } catch {
    // falls through to the error
  }
  throw apiErrors.badQuery('continuationToken', 'not a token this API returned');
}

const listJobs: Handler<R2Service> = async (svc, req, params) => {
  const layer = bucketLayer(namedBucket(svc, req, params).bucket)!;
  const q = req.url.searchParams;
  const type = q.get('jobType');
  if (type !== null && type !== 'prefixDelete') throw apiErrors.badQuery('jobType', 'must be prefixDelete');
  const status = q.get('status');
  if (status !== null) {
    if (!STATUSES.has(status)) throw apiErrors.badQuery('status', `must be one of ${[...STATUSES].join(', ')}`);
    if (type === null) throw apiErrors.badQuery('status', 'needs jobType');
  }
  const rawMax = q.get('maxKeys');
  let max = 1000;
  if (rawMax !== null && rawMax !== '') {
    if (!/^\d+$/.test(rawMax) || Number(rawMax) > 1000)
      throw apiErrors.badQuery('maxKeys', 'must be an integer from 0 to 1000');
    max = Number(rawMax);
  }
  const token = q.get('continuationToken');
  const after = token !== null && token !== '' ? decodeToken(token) : undefined;
  let jobs = (await jobsOf(svc, params, layer)).filter((j) => status === null || j.status === (status as JobStatus));
  if (after !== undefined) {
    const at = jobs.findIndex((j) => j.id === after);
    jobs = at < 0 ? [] : jobs.slice(at + 1);
  }
  const page = jobs.slice(0, max);
  const result: Record<string, unknown> = { jobs: page.map(presentJob) };
  if (jobs.length > page.length && page.length > 0) result.nextContinuationToken = encodeToken(page.at(-1)!.id);
  return ok(result);
};

const getJob =
  (id: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const layer = bucketLayer(namedBucket(svc, req, params).bucket)!;
    const job = (await jobsOf(svc, params, layer)).find((j) => j.id === id);
    if (!job) throw jobErrors.noSuchJob();
    return ok(presentJob(job));
  };

/** `[bucket, 'jobs']` and `[bucket, 'jobs', id]`. */
export const jobRoutes: R2Table = (rest) => {
  if (rest[1] !== 'jobs') return undefined;
  if (rest.length === 2) return { GET: listJobs };
  if (rest.length === 3) return { GET: getJob(rest[2]!) };
  return undefined;
};
