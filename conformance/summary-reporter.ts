/**
 * The conformance summary: for each suite, a table of group × target with passed / failed / known
 * differences (tests that meet a declared difference and fail as declared) / skipped.
 * Used by `npm run conformance` and `npm test` next to Vitest's own reporter; it ends with a plain
 * "N passed, N failed" line over every test of the run.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

interface Cell {
  passed: number;
  failed: number;
  known: number;
  skipped: number;
}

const KNOWN = '— known difference:';
/** The widest a table line may get before its target columns are split over several tables. */
const MAX_WIDTH = 160;
const TOP = /^(\S+) conformance on (.+)$/;

/** The suite names from the module down to a test, outermost first. */
function path(test: TestCase): string[] {
  const names: string[] = [];
  for (let p = test.parent; p.type === 'suite'; p = p.parent) names.unshift(p.name);
  return names;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    // suite → group → target → cell
    const suites = new Map<string, { groups: Map<string, Map<string, Cell>>; targets: Set<string> }>();
    const skippedTargets: string[] = [];
    const all = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const outcome = test.result().state;
        if (outcome === 'failed') all.failed++;
        else if (outcome === 'passed') all.passed++;
        else all.skipped++;
        const names = path(test);
        const top = names[0] !== undefined ? TOP.exec(names[0]) : null;
        const suite = top ? top[1]! : 'other';
        const target = top ? top[2]! : module.project.name;
        const group = (top ? names[1] : names[0]) ?? '(top level)';
        const state = test.result().state;
        if (!top && state === 'skipped') {
          skippedTargets.push(`${module.project.name}: ${test.name}`);
          continue;
        }
        let s = suites.get(suite);
        if (!s) suites.set(suite, (s = { groups: new Map(), targets: new Set() }));
        s.targets.add(target);
        let g = s.groups.get(group);
        if (!g) s.groups.set(group, (g = new Map()));
        let cell = g.get(target);
        if (!cell) g.set(target, (cell = { passed: 0, failed: 0, known: 0, skipped: 0 }));
        if (state === 'failed') cell.failed++;
        else if (state === 'skipped' || state === 'pending') cell.skipped++;
        else if (test.name.includes(KNOWN)) cell.known++;
        else cell.passed++;
      }
    }

    const lines: string[] = ['', 'Conformance summary (passed / failed / known differences / skipped)'];
    for (const [suite, { groups, targets }] of suites) {
      const cols = [...targets];
      const rows = [...groups].map(([group, cells]) => [
        group,
        ...cols.map((t) => {
          const c = cells.get(t);
          return c ? `${c.passed} / ${c.failed} / ${c.known} / ${c.skipped}` : '-';
        }),
      ]);
      const totals = cols.map((t) => {
        const sum = { passed: 0, failed: 0, known: 0, skipped: 0 };
        for (const cells of groups.values()) {
          const c = cells.get(t);
          if (c) for (const k of Object.keys(sum) as (keyof Cell)[]) sum[k] += c[k];
        }
        return `${sum.passed} / ${sum.failed} / ${sum.known} / ${sum.skipped}`;
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
        const fmt = (r: string[]) => columns.map((i) => r[i]!.padEnd(widths[i]!)).join(' | ').trimEnd();
        lines.push('', fmt(table[0]!), columns.map((i) => '-'.repeat(widths[i]!)).join('-|-'));
        for (const r of table.slice(1)) lines.push(fmt(r));
      }
    }
    if (skippedTargets.length) {
      lines.push('', 'Targets not run:');
      for (const s of skippedTargets) lines.push(`- ${s}`);
    }
    // A closing line any CI can read, whatever it knows of Vitest.
    lines.push('', `tests: ${all.passed} passed, ${all.failed} failed, ${all.skipped} skipped`);
    console.log(lines.join('\n'));
  }
}
