// The layering of lib/ (ARCHITECTURE.md, "What may import what"), checked by `npm run lint`.
import { buildEntries } from './scripts/entries.mjs';

// Imports run one way at run time, from the ground up; a type (`import type`) may go any way, except
// into the /client/v4 front door, which knows no product, and into test support, which knows none either.

/**
 * Each folder of lib/ and its rank: a folder imports, at run time, only folders of a lower rank.
 * Two folders of one rank are peers and import neither way. `lib` is the shared files directly in lib/.
 */
export const LAYERS = [
  ['lib', 0],
  ['support', 1],
  ['api', 2],
  ['bucket', 3],
  ['dns', 3],
  ['queue', 4],
  ['account', 5],
  ['s3', 6],
  ['r2-public', 7],
  ['r2-api', 8],
  ['dns-api', 9],
  ['env', 9],
  ['cloudflare-api', 10],
  ['node', 11],
];

/** The package's entry files (package.json `exports`, `bin`): they gather names and nothing imports them. */
const ENTRY_FILES = `^(${buildEntries()
  .map((e) => e.source.replace(/[.]/g, '[.]'))
  .join('|')})$`;

const pathOf = (folder) => (folder === 'lib' ? '^lib/[^/]+[.]ts$' : `^lib/${folder}/`);

const layering = LAYERS.flatMap(([folder, rank]) => {
  const above = LAYERS.filter(([other, r]) => other !== folder && r >= rank).map(([other]) => other);
  if (above.length === 0) return [];
  return {
    name: `layer-${folder}`,
    comment: `lib/${folder === 'lib' ? '*.ts' : `${folder}/`} (rank ${rank}) may not import ${above.join(', ')}, not even a type: move the shared part down, or take an interface a lower room declares (lib/support/backend.ts)`,
    severity: 'error',
    from: { path: pathOf(folder), pathNot: ENTRY_FILES },
    to: {
      path: above.map(pathOf),
      pathNot: ENTRY_FILES,
      // Types too (issue 34): a type import upward ties a room to one above it as surely as code.
    },
  };
});

export default {
  forbidden: [
    ...layering,
    {
      name: 'entries-are-leaves',
      comment: 'an entry file gathers public names; code inside lib/ imports the module that holds a name',
      severity: 'error',
      from: { path: '^lib/', pathNot: ENTRY_FILES },
      to: { path: ENTRY_FILES },
    },
    {
      name: 'front-door-knows-no-product',
      comment:
        'lib/api/ is the /client/v4 front door of every product: nothing of lib/dns/, not even a type (a shared contract lives below both, like lib/dns-answer.ts)',
      severity: 'error',
      from: { path: '^lib/api/' },
      to: { path: '^lib/(dns|bucket|queue)/' },
    },
    {
      name: 'support-knows-no-product',
      comment:
        'lib/support/ is the test support every double shares: nothing of another folder of lib/ (a product, or what is built of products), not even a type; a product declares its part beside it (like lib/bucket/object-matcher.ts) and the entries assemble them',
      severity: 'error',
      from: { path: '^lib/support/' },
      to: { path: '^lib/[^/]+/', pathNot: '^lib/support/' },
    },
    {
      name: 'node-only-in-lib-node',
      comment: 'lib/ runs in Node, browsers and workerd: only lib/node/ imports node: modules statically',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/node/' },
      to: { dependencyTypes: ['core'], dependencyTypesNot: ['dynamic-import', 'type-only', 'type-import'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'an import that resolves to nothing',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Packages are not cruised; node: modules still show, as `core`.
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
