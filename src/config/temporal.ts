import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from './project-root';
import { registerSecret } from '../secrets/known-secrets';
import { type ClientConnectConfig, loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';
import type { NativeConnectionOptions, TLSConfig } from '@temporalio/worker';
import { type Env, parseSection, port } from './env';
import { withSecretFiles } from './secret-files';
import { type Reader, setting, type SettingMeta, TEMPORAL_CLIENTS } from './setting';

export const DEFAULT_NAMESPACE = 'ramp-orchestrator';
const DEFAULT_TASK_QUEUE = 'ramp-orchestrator';

/**
 * Temporal's own connection settings are read by its environment configuration (@temporalio/envconfig), so the
 * names and the temporal.toml profiles are the ones Temporal's CLI and SDKs use. They stand here, unvalidated, so
 * that the reference lists the ones a deployment sets; envconfig also reads TEMPORAL_TLS_SERVER_CA_CERT_PATH (a
 * server certificate that is not a public one, as docs/deployment.md shows), TEMPORAL_TLS, TEMPORAL_TLS_SERVER_NAME,
 * the _DATA forms of the TLS files, TEMPORAL_GRPC_META_* and TEMPORAL_PROFILE / TEMPORAL_CONFIG_FILE (a profile of
 * a temporal.toml file). Without an address (neither variable nor profile) npm start runs its own dev server.
 */
/** The release command (npm run release) reads the connection and the task queue, whose Worker Deployment it shows. */
const WITH_RELEASE: readonly Reader[] = [...TEMPORAL_CLIENTS, 'release'];

const envconfig = (meta: Omit<SettingMeta, 'group' | 'readBy'>) =>
  setting(z.string().optional(), { group: 'production', readBy: WITH_RELEASE, ...meta });

export const temporalEnv = z.object({
  TEMPORAL_ADDRESS: envconfig({
    default: "npm start's dev server",
    meaning:
      "The Temporal frontend, host:port (Temporal's envconfig). A stand-alone process needs it; without it npm start " +
      'runs a local dev server.',
    required: 'yes',
    example: 'temporal.internal:7233',
  }),
  TEMPORAL_NAMESPACE: envconfig({
    default: DEFAULT_NAMESPACE,
    meaning: "The namespace every process uses (Temporal's envconfig).",
    example: DEFAULT_NAMESPACE,
  }),
  TEMPORAL_API_KEY: envconfig({
    default: 'none',
    meaning: "An API key for Temporal Cloud; implies TLS (Temporal's envconfig).",
    secret: true,
    required: 'on Temporal Cloud with an API key',
  }),
  TEMPORAL_TLS_CLIENT_CERT_PATH: envconfig({
    default: 'none',
    meaning: "PEM client certificate for mTLS (Temporal's envconfig).",
    required: 'with mTLS',
    example: '/run/secrets/temporal-client.pem',
  }),
  TEMPORAL_TLS_CLIENT_KEY_PATH: envconfig({
    default: 'none',
    meaning: "PEM private key of that certificate (Temporal's envconfig).",
    required: 'with mTLS',
    example: '/run/secrets/temporal-client.key',
  }),
  TEMPORAL_TASK_QUEUE: setting(z.string().min(1).default(DEFAULT_TASK_QUEUE), {
    group: 'production',
    default: DEFAULT_TASK_QUEUE,
    meaning: 'The task queue the workers poll and every process starts workflows on.',
    readBy: WITH_RELEASE,
    example: DEFAULT_TASK_QUEUE,
  }),
  TEMPORAL_DEV_IP: setting(z.string().default('127.0.0.1'), {
    group: 'local development',
    default: '127.0.0.1',
    meaning:
      "Where npm start's dev server and its Web UI listen; a process without TEMPORAL_ADDRESS connects there.",
    readBy: WITH_RELEASE,
  }),
  TEMPORAL_DEV_PORT: setting(port(7233), {
    group: 'local development',
    default: '7233',
    meaning: "The dev server's gRPC port; a process without TEMPORAL_ADDRESS connects there.",
    readBy: WITH_RELEASE,
  }),
  TEMPORAL_UI_PORT: setting(port(8233), {
    group: 'local development',
    default: '8233',
    meaning: "The dev server's Web UI port (0: a free one); the codec server allows that origin.",
    readBy: ['npm start'],
  }),
  TEMPORAL_DATA_DIR: setting(z.string().optional(), {
    group: 'local development',
    default: '.data',
    meaning:
      "Where npm start keeps the dev server's SQLite file and the sandbox's state (relative to the project).",
    readBy: ['npm start'],
  }),
});

function buffersOf(tls: TLSConfig): TLSConfig {
  const buffer = (data: Uint8Array | undefined) => (data === undefined ? undefined : Buffer.from(data));
  return {
    ...tls,
    ...(tls.serverRootCACertificate ? { serverRootCACertificate: buffer(tls.serverRootCACertificate) } : {}),
    ...(tls.clientCertPair
      ? { clientCertPair: { crt: buffer(tls.clientCertPair.crt)!, key: buffer(tls.clientCertPair.key)! } }
      : {}),
  };
}

export interface TemporalConfig {
  /** Set when an existing server is used; undefined means "start the local dev server". */
  address: string | undefined;
  namespace: string;
  taskQueue: string;
  /** TLS, API key and gRPC metadata as Temporal's environment configuration resolved them (address apart). */
  connection: Omit<NativeConnectionOptions, 'address'>;
  devServer: {
    ip: string;
    port: number;
    uiPort: number;
    dataDir: string;
  };
}

export function loadTemporalConfig(env: Env, projectRoot = PROJECT_ROOT): TemporalConfig {
  const raw = parseSection('Temporal', temporalEnv, env);
  // TEMPORAL_API_KEY_FILE: envconfig is handed the key itself (parseSection has refused a file it cannot read).
  const definedEnv = Object.fromEntries(
    Object.entries(withSecretFiles(temporalEnv.shape, env).env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  let resolved: ClientConnectConfig;
  try {
    resolved = toClientOptions(loadClientConfigProfile({ overrideEnvVars: definedEnv }));
  } catch (error) {
    throw new Error(
      `Invalid Temporal configuration:\n  ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { address, tls, ...rest } = resolved.connectionOptions;
  // envconfig reads certificate files into Uint8Arrays; the client's gRPC library (grpc-js) accepts only Buffers.
  const connection = {
    ...rest,
    ...(tls === undefined ? {} : { tls: tls !== null && typeof tls === 'object' ? buffersOf(tls) : tls }),
  };
  if (connection.apiKey && typeof connection.apiKey === 'string') registerSecret(connection.apiKey);
  return {
    address: address || undefined,
    namespace: resolved.namespace || DEFAULT_NAMESPACE,
    taskQueue: raw.TEMPORAL_TASK_QUEUE,
    connection,
    devServer: {
      ip: raw.TEMPORAL_DEV_IP,
      port: raw.TEMPORAL_DEV_PORT,
      uiPort: raw.TEMPORAL_UI_PORT,
      dataDir: path.resolve(projectRoot, raw.TEMPORAL_DATA_DIR ?? '.data'),
    },
  };
}
