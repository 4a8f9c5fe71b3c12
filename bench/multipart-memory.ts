/**
 * Child process for issue 3's 256 MiB multipart case: `node --import tsx bench/multipart-memory.ts
 * <double|v2|workerd>`. Each contender runs in its own fresh process so that peak RSS belongs to it
 * alone. Prints one JSON line (`MultipartMemoryReport`) for bench/multipart.ts to tabulate.
 *
 * It uploads 256 MiB in 5 MiB parts (51 parts of 5 MiB and a last one of 1 MiB, R2's rules), from
 * one reused caller buffer, completes the upload, then reads the object back through `body`.
 * Memory is read from `process.memoryUsage().arrayBuffers` (the bytes of all live and not yet
 * collected ArrayBuffers: where object bytes live) after every step, and from maxRSS.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { withContender, type BenchPart, type ContenderId } from './contenders.js';
import { gc, MiB } from './stats.js';

export const TOTAL = 256 * MiB;
export const PART = 5 * MiB;

export interface MultipartMemoryReport {
  readonly contender: ContenderId;
  readonly parts: number;
  readonly bytes: number;
  /** create + every uploadPart + complete. */
  readonly uploadMs: number;
  readonly readMs: number;
  readonly baselineRss: number;
  /** process.resourceUsage().maxRSS (peak over the process's life), bytes. */
  readonly peakRss: number;
  /** Highest arrayBuffers seen during the upload, over the baseline. */
  readonly peakArrayBuffers: number;
  /** arrayBuffers just before / after `complete` (no gc between): what completing allocated. */
  readonly completeNew: number;
  /** arrayBuffers after the upload and a full gc, over the baseline: what the stored object holds. */
  readonly retainedNew: number;
  /** Highest arrayBuffers over the pre-read level while streaming the object back. */
  readonly readPeakExtra: number;
  readonly readChunks: number;
  /** workerd only: the workerd process's own peak and baseline RSS (its storage lives there). */
  readonly workerdPeakRss?: number;
  readonly workerdBaselineRss?: number;
}

const arrayBuffers = () => process.memoryUsage().arrayBuffers;

/** Our workerd child (Miniflare spawns it directly), found through /proc (Linux only). */
function workerdStatus(field: 'VmHWM' | 'VmRSS'): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (!/^Name:\s+workerd$/m.test(status) || !new RegExp(`^PPid:\\s+${process.pid}$`, 'm').test(status)) continue;
      const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
      return kb * 1024;
    } catch {
      /* the process went away */
    }
  }
  return undefined;
}

async function run(contender: ContenderId): Promise<MultipartMemoryReport> {
  const source = new Uint8Array(PART).fill(0x62);
  return withContender(contender, async ({ bucket }) => {
    gc();
    const baselineRss = process.memoryUsage().rss;
    const base = arrayBuffers();
    const workerdBaselineRss = contender === 'workerd' ? workerdStatus('VmRSS') : undefined;
    let peak = base;
    const sample = () => {
      const now = arrayBuffers();
      if (now > peak) peak = now;
      return now;
    };

    const t0 = performance.now();
    const upload = await bucket.createMultipartUpload('mp/256MiB');
    const parts: BenchPart[] = [];
    let partNumber = 0;
    for (let at = 0; at < TOTAL; at += PART) {
      const len = Math.min(PART, TOTAL - at);
      parts.push(await upload.uploadPart(++partNumber, len === PART ? source : source.subarray(0, len)));
      sample();
    }
    const beforeComplete = sample();
    await upload.complete(parts);
    const afterComplete = sample();
    const uploadMs = performance.now() - t0;

    gc();
    const retained = arrayBuffers();

    // Read back through the stream: if the body streams the chunks, memory stays near `retained`.
    const t1 = performance.now();
    const object = await bucket.get('mp/256MiB');
    if (!object) throw new Error('the completed object is missing');
    const reader = object.body.getReader();
    let read = 0;
    let readChunks = 0;
    let readPeak = retained;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      readChunks++;
      readPeak = Math.max(readPeak, arrayBuffers());
    }
    const readMs = performance.now() - t1;
    if (read !== TOTAL) throw new Error(`read back ${read} bytes, expected ${TOTAL}`);

    return {
      contender,
      parts: parts.length,
      bytes: TOTAL,
      uploadMs,
      readMs,
      baselineRss,
      peakRss: process.resourceUsage().maxRSS * 1024,
      peakArrayBuffers: peak - base,
      completeNew: afterComplete - beforeComplete,
      retainedNew: retained - base,
      readPeakExtra: readPeak - retained,
      readChunks,
      workerdPeakRss: contender === 'workerd' ? workerdStatus('VmHWM') : undefined,
      workerdBaselineRss,
    };
  });
}

const contender = process.argv[2] as ContenderId;
if (!['double', 'v2', 'workerd'].includes(contender)) {
  console.error('usage: node --import tsx bench/multipart-memory.ts <double|v2|workerd>');
  process.exit(2);
}
console.log(JSON.stringify(await run(contender)));
