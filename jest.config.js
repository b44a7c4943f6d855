/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs', ignoreDynamic: true } },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
  // Each test file loads the gateway's whole module graph again, and a worker keeps some of every
  // file's: after some 70 files one ran out of heap. A worker past this size is replaced between files.
  workerIdleMemoryLimit: '1GB',
  // Temporal workers and servers keep handles briefly after shutdown; do not let jest hang on them.
  forceExit: true,
};
