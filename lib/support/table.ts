/** Plain-text tables for the call log and fault lists: columns padded to their widest cell. */

/** Cells longer than this are cut (with an ellipsis) so one long body does not widen the table. */
const MAX_CELL = 60;

const cut = (s: string) => {
  const one = s.replace(/\s*\n\s*/g, ' ');
  return one.length > MAX_CELL ? `${one.slice(0, MAX_CELL - 1)}…` : one;
};

/** Rows of the same keys (the first row's order) as an aligned table with a header line. */
export function table(rows: readonly Record<string, string>[]): string {
  if (rows.length === 0) return '';
  const columns = Object.keys(rows[0]!);
  const cells = rows.map((r) => columns.map((c) => cut(r[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (cs: readonly string[]) =>
    cs
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** A value shown in one cell: strings as they are, the rest as compact JSON. */
export function show(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v);
  } catch {
    return String(v);
  }
}
