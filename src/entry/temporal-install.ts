/**
 * `npm run temporal:install [-- --cli-only]`: finds or installs the Temporal CLI and the time-skipping test server
 * (src/temporal/install-cli.ts) and prints their paths.
 */
import { ensureTemporalCli, ensureTestServer } from '../temporal/install-cli';
import { TEMPORAL_CLI_VERSION, TEMPORAL_TEST_SERVER_VERSION } from '../temporal/versions';
import { commandFlags, defineCommand } from './args';

const COMMAND = defineCommand({
  usage: 'npm run temporal:install --',
  summary: `Finds or installs the Temporal CLI ${TEMPORAL_CLI_VERSION} and the time-skipping test server ${TEMPORAL_TEST_SERVER_VERSION}, and prints their paths.`,
  flags: { 'cli-only': { type: 'boolean', description: 'the CLI only, not the test server' } },
  notes: [
    'TEMPORAL_CLI_PATH and TEMPORAL_TEST_SERVER_PATH name binaries to use as they are (docs/configuration.md).',
  ],
});

async function main(): Promise<void> {
  const flags = commandFlags(COMMAND);
  const env = process.env;
  try {
    const cli = await ensureTemporalCli({ env });
    console.log(`TEMPORAL_CLI_PATH=${cli.path}`);
    if (flags['cli-only'] !== true) {
      const testServer = await ensureTestServer({ env });
      console.log(`TEMPORAL_TEST_SERVER_PATH=${testServer.path}`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}

void main();
