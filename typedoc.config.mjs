// The API reference (`npm run docs`): TypeDoc over every public entry of package.json "exports"
// (scripts/entries.mjs). Warnings fail: an undocumented export, a public type naming an unexported one.
// Source links are relative to docs/api/, so they work in any checkout, with or without a git remote.
import { entries } from './scripts/entries.mjs';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  entryPoints: entries().map((e) => e.source),
  tsconfig: 'tsconfig.json',
  out: 'docs/api',
  name: 'edge-doubles',
  readme: 'none',
  excludePrivate: true,
  excludeProtected: true,
  excludeInternal: true,
  excludeExternals: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  treatWarningsAsErrors: true,
  logLevel: 'Warn',
  requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias'],
  intentionallyNotExported: [
    'AccountHolder',
    'AskedAnswer',
    'BucketAction',
    'BucketCreateOptions',
    'CONTENT_TYPES',
    'CallFilter',
    'Case',
    'CloudflareSnapshot',
    'DATA_TYPES',
    'Fetch',
    'FieldExpectation',
    'GetResult',
    'HeadResult',
    'Hook',
    'IdbFactory',
    'NOTIFICATION_ACTIONS',
    'QueuesConfig',
    'R2MultipartUpload',
    'ResolvedConsumerSettings',
    'Surface',
  ],
  disableGit: true,
  sourceLinkTemplate: '../../{path}#L{line}',
  basePath: '.',
};
