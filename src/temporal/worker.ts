import path from 'node:path';
import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { RampActivities } from '../../activities';

export const WORKFLOWS_PATH = path.resolve(__dirname, '..', '..', 'workflows', 'index.ts');

export interface RampWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: RampActivities;
  /** A pre-built bundle (tests build it once per run); otherwise the worker bundles workflows/ itself. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  identity?: string;
  /** Payload codecs (encryption): src/temporal/data-converter.ts dataConverterFromConfig(). */
  dataConverter?: WorkerOptions['dataConverter'];
  /** Longest wait for in-flight tasks on shutdown before giving up (default 30 s), so Ctrl-C always ends. */
  shutdownForceTime?: WorkerOptions['shutdownForceTime'];
}

/** The project's worker: every workflow of workflows/index.ts and every activity, on one task queue. */
export function createRampWorker(options: RampWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: options.activities,
    shutdownForceTime: options.shutdownForceTime ?? '30s',
    ...(options.identity ? { identity: options.identity } : {}),
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
  });
}
