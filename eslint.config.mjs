// The lint half of `npm run lint` (Prettier is the format half; CONTRIBUTING.md says why these two).
// typescript-eslint reads the real types, so a floating promise is found through any import, which
// is what a double whose every call is async needs most. The layering of lib/ is dependency-cruiser's
// (.dependency-cruiser.mjs), not a rule here.
import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'docs/api/',
      '.browser-dist/',
      '.jest-package/',
      '.runners-package/',
      '.bench-package/',
      '.wrangler/',
      '.api-report/',
      'spec/jest/consumer/',
      'spec/types/',
      // Generated from workerd's capnp by scripts/compat-flags.mjs.
      'lib/bucket/compat-flags.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  comments.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its error and its order: the bug class a double of async APIs breeds.
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test() and describe() run on their own; its documentation calls them unawaited.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it'] }] },
      ],
      // `a ? b() : c()` and `a && b()` as statements read plainly; a bare value is still a finding.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // `any` only with a disable comment that says why (`-- reason`, required below).
      '@typescript-eslint/no-explicit-any': 'error',
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@eslint-community/eslint-comments/disable-enable-pair': ['error', { allowWholeFile: true }],
      // `import { type A }` still loads its module (verbatimModuleSyntax); write `import type { A }` when
      // every name is a type, so the layering check (dependency-cruiser) reads the edge as a type edge.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // The catalogue of workerd's and R2's behaviours has empty catch blocks by design (a probe that
      // may throw); each says so in a comment, which this rule accepts.
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    // Plain JavaScript (runners, scripts): no type information to lint with.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { ...globals.node, ...globals.browser },
    },
  },
);
