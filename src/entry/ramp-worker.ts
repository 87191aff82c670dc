/**
 * The worker `npm start` and `npm run worker` both run, built one way: every activity over the given operator,
 * Temporal client and database, the outcome dispatcher beside it, the cache and slots logged, and the operations
 * schedules created or updated (idempotent, so every worker start applies them). Polling starts with run(), so the
 * caller decides what comes first.
 */
import type { Logger } from 'pino';
import { createActivities } from '../../activities';
import { createAlertActivities } from '../../activities/operations/alerts/activities';
import type { Database } from '../database/connection';
import { type RunningDispatcher, startDispatcher } from '../outcomes/dispatcher';
import { dispatcherIncidents, dispatcherRequestId } from '../outcomes/incidents';
import { type ClientWebhookConfig, loadClientWebhookConfig } from '../config/client-webhooks';
import { loadEncryptionConfig, type PayloadEncryptionConfig } from '../config/encryption';
import type { Env } from '../config/env';
import { loadOperationsConfig, type OperationsConfig } from '../config/operations';
import type { ReceiverConfig } from '../config/receiver';
import type { TemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { loadWorkerConfig, type WorkerConfig } from '../config/worker';
import { type WorkerVersion, workerVersion } from '../config/worker-version';
import { DEFAULT_PROCESS_IDS } from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import type { OperatorClient } from '../operator/client';
import { type AppliedSchedule, applySchedules } from '../temporal/schedules';
import { logWorkerTuning } from '../temporal/worker';
import { connectRampWorker, type RampWorker, type TemporalConnection } from '../temporal/wiring';

/** What a worker reads beside Temporal's and the operator's settings, loaded once by its entry point. */
export interface WorkerSettings {
  worker: WorkerConfig;
  encryption: PayloadEncryptionConfig;
  operations: OperationsConfig;
  timings: WorkflowTimings;
  clientWebhooks: ClientWebhookConfig;
}

export function loadWorkerSettings(env: Env): WorkerSettings {
  return {
    worker: loadWorkerConfig(env),
    encryption: loadEncryptionConfig(env),
    operations: loadOperationsConfig(env),
    timings: loadWorkflowTimings(env),
    clientWebhooks: loadClientWebhookConfig(env),
  };
}

export interface BuildRampWorkerOptions {
  settings: WorkerSettings;
  temporal: TemporalConfig;
  address: string;
  /** The process's client connection: the activities' Temporal client, and the schedules' (same data converter). */
  connected: TemporalConnection;
  operator: OperatorClient;
  logger: Logger;
  /** The receiver whose URLs the account setup registers; a thunk, so a worker that never runs it needs no secrets. */
  receiver: () => ReceiverConfig;
  /** Where outcome events go, when the caller adds endpoints of its own (npm start's demo backend). */
  clientWebhooks?: ClientWebhookConfig;
  /** The product's database: the activities write the processes' records there, the dispatcher delivers from it. */
  database: Database;
  /** The release's build ID (`--build-id`); the package version when absent. */
  buildId?: string;
}

export interface BuiltRampWorker {
  worker: RampWorker;
  /** Delivers the outcome events the ledger holds; runs from build until stop(). */
  dispatcher: RunningDispatcher;
  /** The Worker Deployment version it polls as. */
  version: WorkerVersion;
  schedules: AppliedSchedule[];
  /** Stops the worker, then the dispatcher. */
  stop: () => Promise<void>;
}

export async function buildRampWorker(options: BuildRampWorkerOptions): Promise<BuiltRampWorker> {
  const { settings, temporal, connected, logger, database } = options;
  const version = workerVersion(temporal.taskQueue, options.buildId);
  const config = {
    receiver: options.receiver,
    gas: settings.operations.gas,
    alerts: settings.operations.alerts,
    processIds: { ...DEFAULT_PROCESS_IDS },
    encryption: settings.encryption,
    clientWebhooks: options.clientWebhooks ?? settings.clientWebhooks,
  };
  const worker = await connectRampWorker({
    version,
    temporal,
    address: options.address,
    dataConverter: connected.dataConverter,
    tuning: settings.worker.tuning,
    activities: createActivities({
      operator: options.operator,
      temporal: connected.client,
      logger,
      config,
      ledger: database.db,
    }),
  });
  const dispatcher = startDispatcher({
    database,
    clientWebhooks: config.clientWebhooks,
    timings: settings.timings.outcomeDelivery,
    logger,
    incidents: dispatcherIncidents(
      createAlertActivities({ logger, config, ledger: database.db }, dispatcherRequestId),
    ),
  });
  const stop = async () => {
    await worker.stop();
    await dispatcher.stop();
  };
  try {
    logWorkerTuning(logger, settings.worker.tuning);
    const schedules = await applySchedules(connected.client, {
      taskQueue: temporal.taskQueue,
      timings: settings.timings,
      ops: settings.operations.schedules,
    });
    return { worker, version, dispatcher, schedules, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
