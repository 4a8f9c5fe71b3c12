/**
 * The package's API report: for each entry of package.json "exports" (scripts/entries.mjs), API
 * Extractor's report of its declarations as users get them (tsup's .d.ts, built here), committed as
 * etc/api/<entry>.api.md. A name that appears or disappears, or a signature that changes, shows as a
 * diff of those files in review.
 *
 *   npm run api:report   rewrites etc/api/ from the code
 *   npm run api:check    fails, printing the diff, when etc/api/ differs from the code (CI)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  ExtractorMessageCategory,
  type IConfigFile,
} from '@microsoft/api-extractor';
import { build } from 'tsup';
import { declarations } from '../tsup.config.js';
import { entries } from './entries.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const reportFolder = join(root, 'etc/api');
/** Scratch space, gitignored: the declarations built here and the reports of a check. */
const work = join(root, '.api-report');
const dtsFolder = join(work, 'dts');
const newFolder = join(work, 'new');

const check = process.argv.includes('--check');

/** The declarations tsup publishes (dist/*.d.ts), built alone into the scratch folder. */
async function buildDeclarations(): Promise<void> {
  rmSync(dtsFolder, { recursive: true, force: true });
  await build({ ...declarations, format: ['esm'], config: false, outDir: dtsFolder, silent: true });
}

/** API Extractor's settings for one entry: the report only (no rollup, no doc model). */
function configOf(name: string, dts: string): IConfigFile {
  return {
    projectFolder: root,
    mainEntryPointFilePath: dts,
    bundledPackages: [],
    compiler: {
      // The declarations alone, as a user's TypeScript reads them; the package's own tsconfig would pull in lib/.
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        include: [join(dtsFolder, '*.d.ts')],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: name,
      reportFolder,
      reportTempFolder: newFolder,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    // A message left on is printed and fails the run: none is written into the report, whose footer
    // would name tsup's hashed chunk files and their line numbers.
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: false },
        // The package uses no release tags (@public, @beta): every exported name is public.
        'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
        // A public type naming an unexported one is TypeDoc's check (typedoc.config.mjs intentionallyNotExported).
        'ae-forgotten-export': { logLevel: ExtractorLogLevel.None },
        // So is a missing doc comment (typedoc.config.mjs requiredToBeDocumented).
        'ae-undocumented': { logLevel: ExtractorLogLevel.None },
      },
      // Doc comments are TypeDoc's, in its syntax; TSDoc's stricter parser would only add noise.
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
}

/** The differences between a committed report and the code's (paths from the root), as `git diff` prints them. */
function diff(committed: string, current: string): string {
  const result = spawnSync('git', ['diff', '--no-index', '--no-color', '--', committed, current], {
    cwd: root,
    encoding: 'utf8',
  });
  return result.stdout || `(no diff: git could not compare ${committed} and ${current})`;
}

async function main(): Promise<number> {
  await buildDeclarations();
  mkdirSync(reportFolder, { recursive: true });
  rmSync(newFolder, { recursive: true, force: true });
  const packageJsonFullPath = join(root, 'package.json');
  const failed: string[] = [];
  const expected = new Set<string>();
  for (const entry of entries()) {
    const file = `${entry.name}.api.md`;
    expected.add(file);
    const dts = join(dtsFolder, `${entry.dist}.d.ts`);
    if (!existsSync(dts)) throw new Error(`api-report: tsup built no ${entry.dist}.d.ts for ${entry.subpath}`);
    const config = ExtractorConfig.prepare({
      configObject: configOf(entry.name, dts),
      configObjectFullPath: undefined,
      packageJsonFullPath,
    });
    const result = Extractor.invoke(config, {
      localBuild: !check,
      messageCallback: (message) => {
        // API Extractor's own lines ("Analysis will use...", "You have changed the API signature"): this
        // script says what changed, from apiReportChanged.
        if (message.category === ExtractorMessageCategory.Console) message.logLevel = ExtractorLogLevel.None;
      },
    });
    const changed = result.apiReportChanged;
    if (result.errorCount + result.warningCount > 0 || (check && changed)) {
      failed.push(entry.specifier);
      if (check && changed) {
        const committed = join(reportFolder, file);
        console.error(
          existsSync(committed)
            ? diff(`etc/api/${file}`, `.api-report/new/${file}`)
            : `etc/api/${file} is missing (run npm run api:report)`,
        );
      }
    } else if (changed) {
      console.log(`etc/api/${file}: updated (${entry.specifier})`);
    }
  }
  // A report whose entry left package.json "exports".
  for (const file of readdirSync(reportFolder).filter((f) => f.endsWith('.api.md') && !expected.has(f))) {
    if (check) {
      failed.push(`etc/api/${file} (no such entry)`);
      console.error(`etc/api/${file}: no entry of package.json "exports" has this report`);
    } else {
      rmSync(join(reportFolder, file));
      console.log(`etc/api/${file}: removed (no such entry)`);
    }
  }
  if (failed.length) {
    console.error(
      check
        ? `\nThe API differs from etc/api/ for ${failed.join(', ')}. If the change is meant, run npm run api:report and commit etc/api/.`
        : `\nAPI Extractor reported errors or warnings (above) for ${failed.join(', ')}`,
    );
    return 1;
  }
  console.log(check ? 'etc/api/ matches the code' : 'etc/api/ written');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
