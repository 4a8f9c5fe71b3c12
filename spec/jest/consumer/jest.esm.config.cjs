// Jest's ESM mode (`node --experimental-vm-modules`): `import` takes the package's "import" build.
const shared = require('./jest.shared.cjs');

module.exports = { ...shared, testMatch: ['<rootDir>/*.jest.mjs'], transform: {} };
