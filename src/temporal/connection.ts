import { Connection, type ConnectionOptions } from '@temporalio/client';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import type { TemporalConfig } from '../config/temporal';

/**
 * Connection options shared by the client and the worker: what Temporal's environment configuration resolved
 * (TLS with files already read, API key, gRPC metadata), at the given address (the dev server's when we run one).
 */
export function connectionOptions(
  config: Pick<TemporalConfig, 'connection'>,
  address: string,
): ConnectionOptions & NativeConnectionOptions {
  return { ...config.connection, address };
}

export function connectClient(
  config: Pick<TemporalConfig, 'connection'>,
  address: string,
): Promise<Connection> {
  return Connection.connect({ ...connectionOptions(config, address), connectTimeout: '10s' });
}

export function connectWorker(
  config: Pick<TemporalConfig, 'connection'>,
  address: string,
): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(config, address));
}
