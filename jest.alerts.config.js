/**
 * `npm run test:alerts`: the alert rules against a real Prometheus (Debian's package) scraping the running product
 * (test/alerts). Kept out of `npm test`: it needs the prometheus binary, which .ci/run installs under .cache/.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }] },
  roots: ['<rootDir>/test/alerts'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 600000,
  forceExit: true,
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
};
