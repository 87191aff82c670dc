/**
 * `npm run codec-server`: the codec server alone, for deployments (docker-compose and deploy/kubernetes run it), so
 * that the Temporal Web UI and CLI show encrypted payloads in clear. It holds PAYLOAD_ENCRYPTION_KEYS and nothing
 * else: no Temporal connection, no operator. It listens on loopback unless told otherwise (reached through a
 * port-forward: docs/deployment.md) and lets the Web UI's origin (CODEC_SERVER_CORS_ORIGINS) call it.
 */
import { loadEncryptionConfig } from '../config/encryption';
import { loadLogLevel } from '../config/logging';
import { createLogger } from '../logging';
import { startCodecServer } from '../temporal/codec-server';
import { commandFlags, defineCommand } from './args';
import { runMain, untilStopSignal } from './run';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/codec-server.js',
  summary:
    'Serves the codec server (POST /codec/encode, /codec/decode) for the Temporal Web UI and CLI with ' +
    'PAYLOAD_ENCRYPTION_KEYS, on CODEC_SERVER_HOST:CODEC_SERVER_PORT, until SIGINT or SIGTERM.',
  flags: {},
  notes: ['CODEC_SERVER_CORS_ORIGINS names the Web UI origins that may call it (docs/configuration.md).'],
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const env = process.env;
  const logger = createLogger({ name: 'codec-server', level: loadLogLevel(env) });
  const encryption = loadEncryptionConfig(env);
  if (encryption.codecServer.corsOrigins === undefined)
    logger.warn(
      'CODEC_SERVER_CORS_ORIGINS is not set: no Web UI may call the codec server, only the CLI (--codec-endpoint)',
    );
  const codec = await startCodecServer(encryption, { logger });
  await untilStopSignal();
  await codec.close();
}

runMain(main);
