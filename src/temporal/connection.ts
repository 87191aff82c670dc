import { readFileSync } from 'node:fs';
import { Connection, type ConnectionOptions } from '@temporalio/client';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import type { TemporalConfig } from '../config/temporal';

/** Connection options shared by the client and the worker, from TEMPORAL_* settings. */
export function connectionOptions(config: TemporalConfig, address: string): ConnectionOptions & NativeConnectionOptions {
  const tls = config.tls;
  return {
    address,
    apiKey: config.apiKey,
    tls: tls
      ? {
          serverNameOverride: tls.serverName,
          serverRootCACertificate: tls.caPath ? readFileSync(tls.caPath) : undefined,
          clientCertPair:
            tls.certPath && tls.keyPath ? { crt: readFileSync(tls.certPath), key: readFileSync(tls.keyPath) } : undefined,
        }
      : undefined,
  };
}

export function connectClient(config: TemporalConfig, address: string): Promise<Connection> {
  return Connection.connect({ ...connectionOptions(config, address), connectTimeout: '10s' });
}

export function connectWorker(config: TemporalConfig, address: string): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(config, address));
}
