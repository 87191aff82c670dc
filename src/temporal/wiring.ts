/**
 * The one way our processes reach Temporal: a client connection with the product's data converter, and the
 * worker (its own native connection, the same converter, every workflow and activity on the task queue).
 * Entry points load the configuration and pass it here; nothing in this module reads the environment.
 */
import { Client, type Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { PayloadEncryptionConfig } from '../config/encryption';
import type { TemporalConfig } from '../config/temporal';
import type { WorkerTuning } from '../config/worker';
import { activeTracing } from './tracing';
import { connectClient, connectWorker } from './connection';
import { dataConverterFromConfig } from './data-converter';
import { createRampWorker, type RampWorkerOptions } from './worker';

/** The configured server, else the local dev server's address (TEMPORAL_DEV_IP:TEMPORAL_DEV_PORT). */
export function temporalAddress(config: TemporalConfig): string {
  return config.address ?? `${config.devServer.ip}:${config.devServer.port}`;
}

/** The configured server; a process that does not start a dev server of its own cannot run without one. */
export function requiredTemporalAddress(config: TemporalConfig, what: string): string {
  if (!config.address)
    throw new Error(`TEMPORAL_ADDRESS is required for a stand-alone ${what} (npm start runs a local one).`);
  return config.address;
}

export interface ConnectTemporalOptions {
  temporal: Pick<TemporalConfig, 'connection' | 'namespace'>;
  /** Payload encryption keys; none means the SDK's default converter. */
  encryption?: Pick<PayloadEncryptionConfig, 'keys'>;
  address: string;
}

export interface TemporalConnection {
  connection: Connection;
  client: Client;
  /** Undefined without encryption keys (the SDK default); hand it to the worker and the typed client as is. */
  dataConverter: DataConverter | undefined;
  close(): Promise<void>;
}

export async function connectTemporal(options: ConnectTemporalOptions): Promise<TemporalConnection> {
  const dataConverter = dataConverterFromConfig(options.encryption);
  const connection = await connectClient(options.temporal, options.address);
  const tracing = activeTracing();
  const client = new Client({
    connection,
    namespace: options.temporal.namespace,
    ...(dataConverter ? { dataConverter } : {}),
    ...(tracing ? { interceptors: { workflow: tracing.clientInterceptors } } : {}),
  });
  return { connection, client, dataConverter, close: () => connection.close() };
}

export interface ConnectRampWorkerOptions extends Pick<
  RampWorkerOptions,
  'activities' | 'identity' | 'version'
> {
  temporal: Pick<TemporalConfig, 'connection' | 'namespace' | 'taskQueue'>;
  address: string;
  /** The client connection's converter (connectTemporal), so that both ends read the same payloads. */
  dataConverter: DataConverter | undefined;
  /** Cache and slots, from loadWorkerConfig. */
  tuning: WorkerTuning;
}

export interface RampWorker {
  worker: Worker;
  connection: NativeConnection;
  /** Runs the worker until it is shut down (by stop(), or by the SDK on a signal); the same promise on every call. */
  run(): Promise<void>;
  /** Shuts the worker down if it runs, waits for run() to end, then closes its connection. */
  stop(): Promise<void>;
}

/** Connects and creates the worker; polling starts with run(), so the caller decides what comes first. */
export async function connectRampWorker(options: ConnectRampWorkerOptions): Promise<RampWorker> {
  const connection = await connectWorker(options.temporal, options.address);
  let worker: Worker;
  try {
    worker = await createRampWorker({
      connection,
      namespace: options.temporal.namespace,
      taskQueue: options.temporal.taskQueue,
      activities: options.activities,
      ...(options.identity ? { identity: options.identity } : {}),
      tuning: options.tuning,
      ...(options.version ? { version: options.version } : {}),
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
  let running: Promise<void> | undefined;
  const run = () => (running ??= worker.run());
  return {
    worker,
    connection,
    run,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      if (running) await running;
      await connection.close();
    },
  };
}
