// Jest in its default mode: CommonJS, `require('edge-doubles')` takes the package's "require"
// build. Plain JavaScript as Jest runs it, TypeScript through ts-jest.
const shared = require('./jest.shared.cjs');

module.exports = {
  ...shared,
  testMatch: ['<rootDir>/*.jest.js', '<rootDir>/*.jest.ts'],
  // isolatedModules: ts-jest transpiles each file without type-checking it. This project finds the
  // package in a build made for the run, with no declarations (spec/types type-checks consumers).
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
};
