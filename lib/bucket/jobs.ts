/**
 * A bucket's background jobs: R2's prefix deletes and bucket emptying (the API's
 * `DELETE …/objects?prefix=`, cloudflare/api-schemas 2026-08-14 `r2-delete-objects`; polled with
 * `GET …/jobs` and `GET …/jobs/{id}`). A job is plain data kept in the bucket's configuration
 * (config.ts), so the bucket's storage keeps it, a snapshot takes it and a restore brings back the
 * jobs of that moment; the layer (layer.ts `jobStep`) runs each batch of one as a write transaction.
 *
 * What the schema documents and the double follows: a job deletes the objects whose keys begin with
 * its prefix (the whole bucket for `''`), and none uploaded after it started; a small job finishes
 * in the request that made it (`COMPLETED`), a larger one continues in the background; a bucket
 * with event notification rules cannot be emptied (409 10034); the active jobs of a bucket are
 * limited (429 10058). What it does not say and the double decides (docs/conformance.md, R2 API
 * choices): the batch size and pace, the limit of active jobs, that a locked object is skipped (the
 * job still completes) and that multipart uploads are left alone (the schema: "a synchronously
 * completed job does not abort them").
 */

/** A job's status (`r2_r2_bucket_job_status`). */
export type JobStatus = 'ENQUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** A prefix-delete job as the bucket keeps it. */
export interface BucketJob {
  readonly id: string;
  readonly prefix: string;
  /** When it was made (epoch ms): objects uploaded later are not its to delete. */
  readonly start: number;
  readonly status: JobStatus;
  /** When it finished (epoch ms); absent while it runs. */
  readonly end?: number;
  /** Objects deleted so far. */
  readonly deleted: number;
  /** The last key its walk reached: the next batch starts after it. */
  readonly after?: string;
}

/** Objects one batch deletes at most: a job with no more than this finishes in its request. */
export const JOB_BATCH = 1000;

/** How long, on the account's clock, a running job waits between batches (ms). */
export const JOB_PACE_MS = 100;

/** Active (enqueued or running) jobs a bucket takes at once; one more is 429 10058. */
export const MAX_ACTIVE_JOBS = 5;

/** Whether a job is still to run. */
export const isActive = (job: BucketJob): boolean => job.status === 'ENQUEUED' || job.status === 'RUNNING';
