/**
 * The conformance summary: for each suite, a table of group × target with passed / failed / known
 * differences (tests that meet a declared difference and fail as declared) / skipped.
 * Used by `npm run conformance` and `npm test` next to Vitest's own reporter; it ends with a plain
 * "N passed, N failed" line over every test of the run.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { formatResults, type ResultCell } from './results-table.js';

type Cell = ResultCell;

const KNOWN = '— known difference:';
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

    const lines = formatResults(suites);
    if (skippedTargets.length) {
      lines.push('', 'Targets not run:');
      for (const s of skippedTargets) lines.push(`- ${s}`);
    }
    // A closing line any CI can read, whatever it knows of Vitest.
    lines.push('', `tests: ${all.passed} passed, ${all.failed} failed, ${all.skipped} skipped`);
    console.log(lines.join('\n'));
  }
}
