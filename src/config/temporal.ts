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
  TEMPORAL_DEV_DYNAMIC_CONFIG: z.string().optional(),
});

/**
 * WAL lets readers and the one writer proceed together and turns each commit into an append to the OS; with
 * synchronous=OFF nothing waits for the disk. A killed server process loses nothing it acknowledged (the OS holds the
 * writes); an OS crash or power loss can corrupt this local file, which is why production runs a cluster
 * (docs/architecture.md, "The dev server's SQLite").
 */
export const DEFAULT_DEV_SQLITE_PRAGMAS: readonly string[] = ['journal_mode=WAL', 'synchronous=OFF'];

/**
 * `temporal server start-dev` turns off the server's cache of search attribute definitions unless told otherwise, so
 * that an attribute added while it runs is seen at once; it then reads them from SQLite each time it checks one. The
 * cache on roughly halves the persistence requests of an off-ramp (docs/architecture.md, "The dev server's search
 * attribute cache"). The launcher registers every attribute the product uses before the server serves anything
 * (`--search-attribute`), so the cache never misses one; an attribute added by hand to a running server is seen only
 * once the server refreshes its cache (its own interval, which we have not measured).
 */
export const DEFAULT_DEV_DYNAMIC_CONFIG: readonly string[] = [
  'system.forceSearchAttributesCacheRefreshOnRead=false',
  // One partition takes every new task, where the CLI's four left a new workflow's first task waiting about 2 s in
  // a partition no poller was on (docs/architecture.md, "The dev server's task queue partitions"). Reads stay at
  // four, so that tasks an older server wrote to the other three are still handed out.
  'matching.numTaskqueueWritePartitions=1',
  // A worker that schedules an activity on its own task queue gets the activity task in the answer to its workflow
  // task, where the CLI's default sends it through matching: fewer writes per hop (docs/architecture.md, "The dev
  // server hands activities over with the workflow task").
  'system.enableActivityEagerExecution=true',
];

const PRAGMA = /^[a-z_]+=[A-Za-z0-9_-]+$/;
const DYNAMIC_CONFIG_KEY = /^[A-Za-z][A-Za-z0-9_.]*$/;

/** A dynamic config value as the CLI reads it: JSON (true, 100, "text"), without spaces or commas. */
function isDynamicConfigPair(pair: string): boolean {
  const [key, ...rest] = pair.split('=');
  const value = rest.join('=');
  if (!key || !DYNAMIC_CONFIG_KEY.test(key) || value === '') return false;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A list of `name=value` pairs separated by commas or spaces: unset means `defaults`, an empty value means none.
 * A pair `isValid` refuses is named, with the variable, in the error.
 */
function parseDevServerList(
  variable: string,
  text: string | undefined,
  defaults: readonly string[],
  isValid: (pair: string) => boolean,
  form: string,
): string[] {
  if (text === undefined) return [...defaults];
  const pairs = text.split(/[\s,]+/).filter((part) => part !== '');
  const bad = pairs.filter((pair) => !isValid(pair));
  if (bad.length > 0)
    throw new Error(
      `Invalid Temporal configuration:\n  ${variable}: ${bad.map((pair) => JSON.stringify(pair)).join(', ')} not of the form ${form}`,
    );
  return pairs;
}

/**
 * TEMPORAL_DEV_SQLITE_PRAGMAS: `name=value` pairs separated by commas or spaces, each passed to the dev server as
 * `--sqlite-pragma`; unset means the defaults above, an empty value means none (SQLite's own defaults).
 */
export const parseSqlitePragmas = (text: string | undefined): string[] =>
  parseDevServerList(
    'TEMPORAL_DEV_SQLITE_PRAGMAS',
    text,
    DEFAULT_DEV_SQLITE_PRAGMAS,
    (pragma) => PRAGMA.test(pragma),
    'name=value (e.g. journal_mode=WAL)',
  );

/**
 * TEMPORAL_DEV_DYNAMIC_CONFIG: `key=value` pairs separated by commas or spaces, each passed to the dev server as
 * `--dynamic-config-value`, the value in JSON; unset means the defaults above, an empty value means none (the CLI's
 * own defaults).
 */
export const parseDevDynamicConfig = (text: string | undefined): string[] =>
  parseDevServerList(
    'TEMPORAL_DEV_DYNAMIC_CONFIG',
    text,
    DEFAULT_DEV_DYNAMIC_CONFIG,
    isDynamicConfigPair,
    'key=value with a JSON value (e.g. limit.maxIDLength=255)',
  );

/** How the product launches its local dev server, beyond addresses and files: SQLite pragmas and dynamic config. */
export interface DevServerTuning {
  /** `--sqlite-pragma` values. */
  sqlitePragmas: string[];
  /** `--dynamic-config-value` values. */
  dynamicConfig: string[];
}

/** The dev server's tuning alone, for launchers that need nothing else of the Temporal configuration. */
export const loadDevServerTuning = (env: Env): DevServerTuning => ({
  sqlitePragmas: parseSqlitePragmas(env.TEMPORAL_DEV_SQLITE_PRAGMAS),
  dynamicConfig: parseDevDynamicConfig(env.TEMPORAL_DEV_DYNAMIC_CONFIG),
});

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
  devServer: DevServerTuning & {
    ip: string;
    port: number;
    uiPort: number;
    dataDir: string;
  };
}

export function loadTemporalConfig(env: Env, projectRoot = PROJECT_ROOT): TemporalConfig {
  const raw = parseSection('Temporal', temporalSchema, env);
  const tuning = loadDevServerTuning(env);
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
      ...tuning,
    },
  };
}
