// What both modes share. The package is found where ../jest.test.ts builds it, as an installed
// package is: by its name, through its package.json "exports".
const path = require('node:path');

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  modulePaths: [path.join(__dirname, '../../../.jest-package/node_modules')],
  cacheDirectory: path.join(__dirname, '../../../.jest-package/cache'),
};
