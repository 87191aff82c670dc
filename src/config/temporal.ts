import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../app/project-root';
import { registerSecret } from '../logging';
import { booleanFlag, type Env, parseSection, port } from './env';

/**
 * Temporal connection settings, read the way Temporal's own tools read them (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
 * TEMPORAL_API_KEY, TEMPORAL_TLS*). Without TEMPORAL_ADDRESS the product starts its own local dev server.
 */
const temporalSchema = z.object({
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('ramp-orchestrator'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('ramp-orchestrator'),
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  TEMPORAL_TLS: booleanFlag(false),
  TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  TEMPORAL_TLS_CA: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  TEMPORAL_DEV_IP: z.string().default('127.0.0.1'),
  TEMPORAL_DEV_PORT: port(7233),
  TEMPORAL_UI_PORT: port(8233),
  TEMPORAL_DATA_DIR: z.string().optional(),
  TEMPORAL_CLI_PATH: z.string().optional(),
});

export interface TemporalConfig {
  /** Set when an existing server is used; undefined means "start the local dev server". */
  address: string | undefined;
  namespace: string;
  taskQueue: string;
  apiKey: string | undefined;
  tls:
    | undefined
    | { certPath?: string; keyPath?: string; caPath?: string; serverName?: string };
  devServer: { ip: string; port: number; uiPort: number; dataDir: string };
}

export function loadTemporalConfig(env: Env = process.env, projectRoot = PROJECT_ROOT): TemporalConfig {
  const raw = parseSection('Temporal', temporalSchema, env);
  if (raw.TEMPORAL_API_KEY) registerSecret(raw.TEMPORAL_API_KEY);
  // An API key (Temporal Cloud) implies TLS, as in Temporal's own tools.
  const tlsWanted = raw.TEMPORAL_TLS || !!raw.TEMPORAL_API_KEY || !!raw.TEMPORAL_TLS_CERT;
  return {
    address: raw.TEMPORAL_ADDRESS,
    namespace: raw.TEMPORAL_NAMESPACE,
    taskQueue: raw.TEMPORAL_TASK_QUEUE,
    apiKey: raw.TEMPORAL_API_KEY,
    tls: tlsWanted
      ? {
          certPath: raw.TEMPORAL_TLS_CERT,
          keyPath: raw.TEMPORAL_TLS_KEY,
          caPath: raw.TEMPORAL_TLS_CA,
          serverName: raw.TEMPORAL_TLS_SERVER_NAME,
        }
      : undefined,
    devServer: {
      ip: raw.TEMPORAL_DEV_IP,
      port: raw.TEMPORAL_DEV_PORT,
      uiPort: raw.TEMPORAL_UI_PORT,
      dataDir: path.resolve(projectRoot, raw.TEMPORAL_DATA_DIR ?? '.data'),
    },
  };
}
