/**
 * Comparing the outcomes of one op on workerd and on the double.
 *
 * Everything is compared exactly, except what `NORMALISATIONS` (the one table of legitimate
 * differences) rewrites first: identifiers each implementation mints for itself, and the declared
 * differences of conformance/bucket/differences.ts that the simulator under workerd shows.
 */
import type { BucketDifferenceId } from '../bucket/differences.js';
import type { Op, Spec } from './generate.js';
import type { Data, Outcome, Side } from './run.js';

type Obj = { [k: string]: Data };
const isObj = (d: Data): d is Obj => typeof d === 'object' && d !== null && !Array.isArray(d);

interface Context {
  readonly side: Side;
  readonly op: Op;
}

interface Normalisation {
  /** A declared difference, or why the value is per-implementation. */
  readonly id: BucketDifferenceId | `per-implementation: ${string}`;
  /** Rewrites an outcome in place (called for both sides; `side.name` tells them apart). */
  readonly apply: (outcome: Outcome, ctx: Context) => void;
}

/** Every R2Object description inside an outcome (results and list entries). */
function* objects(d: Data): Generator<Obj> {
  if (!isObj(d)) return;
  if (d.kind === 'object') yield d;
  if (d.kind === 'list' && Array.isArray(d.objects)) for (const o of d.objects) if (isObj(o)) yield o;
}

const resolved = (o: Outcome) => (o.how === 'resolved' || o.how === 'returned' ? o.value : undefined);

/** The `include` a list op asked for (workerd's rules: unknown values already rejected). */
function includeOf(op: Op): string[] {
  const opts: Spec | undefined = op.args[0];
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts) || '$$' in opts) return [];
  const inc = (opts as Record<string, Spec>).include;
  return Array.isArray(inc) ? inc.filter((v): v is string => typeof v === 'string') : [];
}

const NORMALISATIONS: readonly Normalisation[] = [
  {
    // A version is random and `uploaded` is each implementation's own clock: compared as "the
    // version / time the write made by op N reported", which still catches a stale or lost write.
    id: 'per-implementation: version and uploaded',
    apply(outcome, { side }) {
      for (const o of objects(resolved(outcome))) {
        const minted = typeof o.version === 'string' ? side.versions.get(o.version) : undefined;
        if (!minted) continue;
        o.version = `version of op ${minted.op}`;
        if (o.uploaded === minted.uploaded) o.uploaded = `uploaded of op ${minted.op}`;
      }
    },
  },
  {
    id: 'per-implementation: upload ids',
    apply(outcome, { side }) {
      const v = resolved(outcome);
      if (isObj(v) && v.kind === 'upload' && typeof v.uploadId === 'string') {
        const op = side.uploadIds.get(v.uploadId);
        if (op !== undefined) v.uploadId = `upload id of op ${op}`;
      }
    },
  },
  {
    // Cursors are opaque: only their presence is compared (each side pages with its own).
    id: 'per-implementation: list cursors',
    apply(outcome) {
      const v = resolved(outcome);
      if (isObj(v) && v.kind === 'list' && typeof v.cursor === 'string') v.cursor = '<cursor>';
    },
  },
  {
    // Random 171-character part etags on the simulator, md5 hex on the double (as in production).
    // Part contents are unique within a seed (generate.ts), so md5 etags never coincide and a part
    // etag compares as "the etag uploadPart op N returned".
    id: 'simulator-random-part-etags',
    apply(outcome, { side }) {
      const v = resolved(outcome);
      if (isObj(v) && v.kind === 'part' && typeof v.etag === 'string') {
        const op = side.partEtags.get(v.etag);
        if (op !== undefined) v.etag = `part etag of op ${op}`;
      }
    },
  },
  {
    id: 'simulator-storage-class',
    apply(outcome) {
      for (const o of objects(resolved(outcome))) o.storageClass = '<storage class>';
    },
  },
  {
    id: 'simulator-ssec-ignored',
    apply(outcome) {
      for (const o of objects(resolved(outcome))) o.ssecKeyMd5 = '<ssecKeyMd5>';
    },
  },
  {
    // The simulator fills unrequested list metadata with {} (so writeHttpMetadata writes nothing);
    // production leaves it undefined (and writeHttpMetadata throws). Not compared.
    id: 'simulator-list-unrequested-metadata',
    apply(outcome, { op }) {
      const v = resolved(outcome);
      if (!isObj(v) || v.kind !== 'list') return;
      const include = includeOf(op);
      for (const o of objects(v)) {
        if (!include.includes('httpMetadata')) {
          o.httpMetadata = '<unrequested>';
          o.writeHttpMetadata = '<unrequested>';
        }
        if (!include.includes('customMetadata')) o.customMetadata = '<unrequested>';
      }
    },
  },
];

export function normalise(outcome: Outcome, ctx: Context): Outcome {
  const copy: Outcome = JSON.parse(
    JSON.stringify(outcome, (_k, v: unknown) => (v === undefined ? '<undefined>' : v)),
  ) as Outcome;
  for (const n of NORMALISATIONS) n.apply(copy, ctx);
  return copy;
}

/** A deterministic rendering (undefined shown, order kept) for messages and equality. */
export function show(d: unknown): string {
  return JSON.stringify(d, (_k, v: unknown) => (v === undefined ? '<undefined>' : v)) ?? '<undefined>';
}

/** The paths where two outcomes differ (at most `max`). */
export function differences(a: unknown, b: unknown, path = '', out: string[] = [], max = 8): string[] {
  if (out.length >= max) return out;
  if (isObj(a as Data) && isObj(b as Data)) {
    const ka = Object.keys(a as Obj);
    const kb = Object.keys(b as Obj);
    for (const k of new Set([...ka, ...kb])) differences((a as Obj)[k], (b as Obj)[k], `${path}.${k}`, out, max);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out, max));
    return out;
  }
  if (show(a) !== show(b)) out.push(`${path || '(root)'}: workerd ${show(a)} vs double ${show(b)}`);
  return out;
}
