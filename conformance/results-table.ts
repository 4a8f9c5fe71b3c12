/**
 * The conformance results table: for each suite, group × target with passed / failed / known
 * differences (cases that fail as declared) / skipped. Printed by the Vitest summary reporter
 * (conformance/summary-reporter.ts) and, under any other runner, by each suite as it ends
 * (conformance/runner.ts).
 */
export interface ResultCell {
  passed: number;
  failed: number;
  known: number;
  skipped: number;
}

/** One suite's cells: group → target → cell, and its targets in the order met. */
export interface SuiteResults {
  groups: Map<string, Map<string, ResultCell>>;
  targets: Set<string>;
}

/** The widest a table line may get before its target columns are split over several tables. */
const MAX_WIDTH = 160;

const show = (c: ResultCell) => `${c.passed} / ${c.failed} / ${c.known} / ${c.skipped}`;

/** The table's lines, a heading first, for each suite. */
export function formatResults(suites: ReadonlyMap<string, SuiteResults>): string[] {
  const lines: string[] = ['', 'Conformance summary (passed / failed / known differences / skipped)'];
  for (const [suite, { groups, targets }] of suites) {
    const cols = [...targets];
    const rows = [...groups].map(([group, cells]) => [
      group,
      ...cols.map((t) => {
        const c = cells.get(t);
        return c ? show(c) : '-';
      }),
    ]);
    const totals = cols.map((t) => {
      const sum: ResultCell = { passed: 0, failed: 0, known: 0, skipped: 0 };
      for (const cells of groups.values()) {
        const c = cells.get(t);
        if (c) for (const k of Object.keys(sum) as (keyof ResultCell)[]) sum[k] += c[k];
      }
      return show(sum);
    });
    const table = [[`${suite} group`, ...cols], ...rows, ['total', ...totals]];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    // Many targets (every runtime) make a table too wide for a terminal or a CI log: the target
    // columns are cut into pages, each repeating the group column.
    const pages: number[][] = [];
    let width = widths[0]!;
    for (let i = 1; i < widths.length; i++) {
      const page = pages.at(-1);
      if (page && width + 3 + widths[i]! <= MAX_WIDTH) {
        page.push(i);
        width += 3 + widths[i]!;
      } else {
        pages.push([i]);
        width = widths[0]! + 3 + widths[i]!;
      }
    }
    for (const page of pages) {
      const columns = [0, ...page];
      const fmt = (r: string[]) =>
        columns
          .map((i) => r[i]!.padEnd(widths[i]!))
          .join(' | ')
          .trimEnd();
      lines.push('', fmt(table[0]!), columns.map((i) => '-'.repeat(widths[i]!)).join('-|-'));
      for (const r of table.slice(1)) lines.push(fmt(r));
    }
  }
  return lines;
}
