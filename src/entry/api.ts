/** `npm run api`: the HTTP API alone, for deployments (docker-compose runs it). It connects to TEMPORAL_ADDRESS. */
import { startApiServer } from '../api/server';
import { commandFlags, defineCommand } from './args';
import { loadTemporalConfig } from '../config/temporal';
import { untilStopSignal } from './run';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/api.js',
  summary:
    'Serves the HTTP API (API_HOST, API_PORT, API_KEY) against TEMPORAL_ADDRESS until SIGINT or SIGTERM.',
  flags: {},
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  if (!loadTemporalConfig().address)
    throw new Error('TEMPORAL_ADDRESS is required for a stand-alone API (npm start runs a local one).');
  // With no typed client given, the server connects its own (TEMPORAL_* settings) and serves /readyz and /metrics.
  const api = await startApiServer();
  await untilStopSignal();
  await api.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
