/** Printing: one aligned table per case, plus the issue targets and whether they were met. */

export interface TargetResult {
  readonly case: string;
  /** e.g. "≥ 5× @miniflare/r2 v2" */
  readonly target: string;
  /** What was measured, formatted (a ratio for speed targets, bytes for memory checks). */
  readonly measured: string;
  readonly pass: boolean;
}

export function printTable(
  title: string,
  header: readonly string[],
  rows: readonly (readonly string[])[],
  notes: readonly string[] = [],
): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n## ${title}`);
  for (const n of notes) console.log(`   ${n}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

export const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(1)} ms`);
export const fmtRate = (x: number, unit: string) =>
  `${x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3)} ${unit}`;
export const fmtRatio = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;
export const fmtMiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A target cell: "≥ 5× PASS" / "≥ 5× MISS", and the result recorded for the summary. */
export function judge(results: TargetResult[], caseName: string, target: string, ratio: number, min: number): string {
  const pass = ratio >= min;
  results.push({ case: caseName, target, measured: fmtRatio(ratio), pass });
  return `≥ ${min}× ${pass ? 'PASS' : 'MISS'}`;
}

export function printSummary(results: readonly TargetResult[]): void {
  printTable(
    'Issue targets',
    ['case', 'target', 'measured', 'verdict'],
    results.map((r) => [r.case, r.target, r.measured, r.pass ? 'PASS' : 'MISS']),
  );
}
