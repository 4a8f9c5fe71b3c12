/**
 * Sippy, R2's incremental migration (issue 28, point 2): with it on, a read of a key the bucket
 * lacks fetches the object from the configured source, answers it, and keeps a copy in the bucket
 * (developers.cloudflare.com/r2/data-migration/sippy/: "When an object is requested ... and it is
 * not present in your R2 bucket, it is fetched from the source and copied to R2"). Every surface
 * reads through the bucket's layer, so the binding, the S3 view, the public hosts and the API's
 * object route all copy in alike (layer.ts calls `copyIn` before a head, get or read).
 *
 * The settings (`SippySettings`, kept in the bucket's configuration, config.ts) are what the API's
 * `PUT /sippy` was given, in wrangler's AWS and GCS shapes or the schema's S3-compatible one. Reaching AWS or GCS is not a test
 * double's business: the source is whatever S3-compatible endpoint the user named for the account
 * (`useSippySource`, lib/r2-api/sippy.ts; a second `r2 serve` is the usual one), which is the
 * double's stand-in for the provider, declared as such. Without one, nothing is fetched.
 */
import type { CustomFields, HttpFields } from './metadata.js';
import type { Body } from './values.js';

/** A Sippy configuration as the API took it (the SDK's SippyUpdateParams: AWS, GCS or an S3-compatible provider). */
export interface SippySettings {
  readonly provider: 'aws' | 'gcs' | 's3';
  /** The source bucket's name (for `s3`, read from `bucketUrl`: its first path segment, else its host's first label). */
  readonly bucket: string;
  /** `s3` only: the URL of the bucket's S3-compatible API, as given. */
  readonly bucketUrl?: string | undefined;
  /** AWS only. */
  readonly region?: string | undefined;
  /** AWS and S3: the IAM key pair; GCS: the service account's client email and private key. */
  readonly accessKeyId?: string | undefined;
  readonly secretAccessKey?: string | undefined;
  readonly clientEmail?: string | undefined;
  readonly privateKey?: string | undefined;
  /** The R2 key id Sippy writes with (`destination.accessKeyId`). */
  readonly destinationAccessKeyId: string;
}

/** What a source answered for a key: its bytes and the metadata its headers carried. */
interface SourceObject {
  readonly body: Body;
  readonly http: HttpFields;
  readonly custom: CustomFields;
}

/** Fetches a key from the source the settings name; undefined when the source has no such object. */
export type SippySource = (settings: SippySettings, key: string) => Promise<SourceObject | undefined>;
