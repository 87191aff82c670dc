/**
 * `npm run test:cluster`: the production shape on a real cluster (test/cluster). Kept out of `npm test`: it
 * provisions PostgreSQL and builds the Temporal server release docker-compose.yml pins on its first run.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }] },
  roots: ['<rootDir>/test/cluster'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 600000,
  forceExit: true,
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
};
