import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from './project-root';
import { registerSecret } from '../secrets/known-secrets';
import { type ClientConnectConfig, loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';
import type { NativeConnectionOptions, TLSConfig } from '@temporalio/worker';
import { type Env, parseSection, port } from './env';

/**
 * Temporal connection settings, read by Temporal's own environment configuration (@temporalio/envconfig), so the
 * names and the temporal.toml profiles are the ones Temporal's CLI and SDKs use: TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS, TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH,
 * TEMPORAL_TLS_SERVER_CA_CERT_PATH (or their _DATA forms), TEMPORAL_TLS_SERVER_NAME, TEMPORAL_GRPC_META_*, and
 * TEMPORAL_PROFILE / TEMPORAL_CONFIG_FILE to pick a profile of a temporal.toml file. Without an address (neither
 * variable nor profile) the product starts its own local dev server.
 */
const temporalSchema = z.object({
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('ramp-orchestrator'),
  TEMPORAL_DEV_IP: z.string().default('127.0.0.1'),
  TEMPORAL_DEV_PORT: port(7233),
  TEMPORAL_UI_PORT: port(8233),
  TEMPORAL_DATA_DIR: z.string().optional(),
  TEMPORAL_CLI_PATH: z.string().optional(),
  TEMPORAL_DEV_SQLITE_PRAGMAS: z.string().optional(),
});

/**
 * WAL lets readers and the one writer proceed together and turns each commit into an append to the OS; with
 * synchronous=OFF nothing waits for the disk. A killed server process loses nothing it acknowledged (the OS holds the
 * writes); an OS crash or power loss can corrupt this local file, which is why production runs a cluster
 * (docs/architecture.md, "The dev server's SQLite").
 */
export const DEFAULT_DEV_SQLITE_PRAGMAS: readonly string[] = ['journal_mode=WAL', 'synchronous=OFF'];

const PRAGMA = /^[a-z_]+=[A-Za-z0-9_-]+$/;

/**
 * TEMPORAL_DEV_SQLITE_PRAGMAS: `name=value` pairs separated by commas or spaces, each passed to the dev server as
 * `--sqlite-pragma`; unset means the defaults above, an empty value means none (SQLite's own defaults).
 */
export function parseSqlitePragmas(text: string | undefined): string[] {
  if (text === undefined) return [...DEFAULT_DEV_SQLITE_PRAGMAS];
  const pragmas = text.split(/[\s,]+/).filter((part) => part !== '');
  const bad = pragmas.filter((pragma) => !PRAGMA.test(pragma));
  if (bad.length > 0)
    throw new Error(
      `Invalid Temporal configuration:\n  TEMPORAL_DEV_SQLITE_PRAGMAS: ${bad.map((pragma) => JSON.stringify(pragma)).join(', ')} not of the form name=value (e.g. journal_mode=WAL)`,
    );
  return pragmas;
}

/** The dev server's SQLite pragmas alone, for launchers that need nothing else of the Temporal configuration. */
export const loadDevSqlitePragmas = (env: Env): string[] =>
  parseSqlitePragmas(env.TEMPORAL_DEV_SQLITE_PRAGMAS);

/** Names this product read before it followed Temporal's; refused so that nobody silently loses mTLS. */
const RENAMED: Record<string, string> = {
  TEMPORAL_TLS_CERT: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
  TEMPORAL_TLS_KEY: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
  TEMPORAL_TLS_CA: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
};

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

export const DEFAULT_NAMESPACE = 'ramp-orchestrator';

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
    /** `--sqlite-pragma` values of the local dev server. */
    sqlitePragmas: string[];
  };
}

export function loadTemporalConfig(env: Env, projectRoot = PROJECT_ROOT): TemporalConfig {
  const raw = parseSection('Temporal', temporalSchema, env);
  const sqlitePragmas = parseSqlitePragmas(raw.TEMPORAL_DEV_SQLITE_PRAGMAS);
  const renamed = Object.keys(RENAMED).filter((name) => env[name] !== undefined);
  if (renamed.length > 0) {
    throw new Error(
      `Invalid Temporal configuration:\n${renamed.map((name) => `  ${name}: not read; Temporal's name for it is ${RENAMED[name]}`).join('\n')}`,
    );
  }
  const definedEnv = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
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
      sqlitePragmas,
    },
  };
}
