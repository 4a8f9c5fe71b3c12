/**
 * The reporter of the bench's suite runs (bench/suites.ts names it with `--reporter`): writes when
 * Vitest was ready, when the run and each test file started and ended, and each file's phases as
 * Vitest measures them (its summary's setup / import / tests / environment figures), as JSON to the
 * file EDGE_DOUBLES_BENCH_REPORT names. Times are epoch milliseconds, comparable with the parent's.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** What one run reported; bench/suites.ts reads it. */
export interface RunReport {
  init: number;
  runStart: number;
  runEnd: number;
  /** When the first test file was queued: Vitest is about to prepare it (environment, setup files, import). */
  firstFileStart: number;
  /** Vitest's summary figure: time spent transforming modules (all files). */
  transformMs: number;
  files: {
    file: string;
    ok: boolean;
    start: number;
    environmentMs: number;
    prepareMs: number;
    setupMs: number;
    importMs: number;
    testsMs: number;
  }[];
}

const now = () => performance.timeOrigin + performance.now();

export default class SuiteTimingReporter implements Reporter {
  private vitest?: Vitest;
  private readonly report: RunReport = {
    init: 0,
    runStart: 0,
    runEnd: 0,
    firstFileStart: 0,
    transformMs: 0,
    files: [],
  };
  private readonly starts = new Map<string, number>();

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.report.init = now();
  }

  onTestRunStart(): void {
    this.report.runStart = now();
  }

  // Queued comes before the file is prepared and imported; onTestModuleStart only once it is collected.
  onTestModuleQueued(module: TestModule): void {
    const at = now();
    this.starts.set(module.moduleId, at);
    if (!this.report.firstFileStart) this.report.firstFileStart = at;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    this.report.runEnd = now();
    // Internal to Vitest (its summary reads it the same way); absent, the column shows 0.
    const state = (this.vitest as unknown as { state?: { transformTime?: unknown } } | undefined)?.state;
    this.report.transformMs = typeof state?.transformTime === 'number' ? state.transformTime : 0;
    for (const module of modules) {
      const d = module.diagnostic();
      this.report.files.push({
        file: module.relativeModuleId,
        ok: module.ok(),
        start: this.starts.get(module.moduleId) ?? 0,
        environmentMs: d.environmentSetupDuration,
        prepareMs: d.prepareDuration,
        setupMs: d.setupDuration,
        importMs: d.collectDuration,
        testsMs: d.duration,
      });
    }
    const path = process.env.EDGE_DOUBLES_BENCH_REPORT;
    if (path) writeFileSync(path, JSON.stringify(this.report));
  }
}
