/**
 * Two projects:
 * - `standalone` (`*.test.ts`): unit tests, tests over HTTP against the sandbox, and queries against the run's
 *   PostgreSQL (its global setup starts one); no Temporal needed.
 * - `temporal` (`*.temporal.test.ts`): everything that runs workflows; its global setup provisions the Temporal CLI
 *   and starts one real dev server and one PostgreSQL for the run (and fails the run, saying why, if it cannot).
 * @swc/jest only strips types (fast on 2 cores); type errors are caught by `npm run typecheck`.
 * @type {import('jest').Config}
 */
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }],
};

module.exports = {
  testTimeout: 60000,
  // Test clients keep their gRPC connections open for the run (test/helpers/temporal.ts says why); exit when done.
  forceExit: true,
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  // Selected by file name: `*.temporal.test.ts` needs the run's dev server, every other `*.test.ts` does not.
  // test/cluster and test/alerts have their own configs (jest.cluster.config.js, jest.alerts.config.js).
  projects: [
    {
      displayName: 'standalone',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        '\\.temporal\\.test\\.ts$',
        '<rootDir>/test/cluster/',
        '<rootDir>/test/alerts/',
      ],
      globalSetup: '<rootDir>/test/setup/database-global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/database-global-teardown.ts',
    },
    {
      displayName: 'temporal',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/**/*.temporal.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/cluster/', '<rootDir>/test/alerts/'],
      globalSetup: '<rootDir>/test/setup/temporal-global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/temporal-global-teardown.ts',
    },
  ],
};
