import { existsSync } from 'node:fs';
import path from 'node:path';
import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { RampActivities } from '../../activities';

/** True when this module runs compiled (dist/src/temporal/worker.js), false under tsx from src/. */
const COMPILED = path.extname(__filename) === '.js';

/** The workflows' entry point beside this module's tree: workflows/index.ts in the sources, index.js in dist/. */
export const WORKFLOWS_PATH = path.resolve(
  __dirname,
  '..',
  '..',
  'workflows',
  COMPILED ? 'index.js' : 'index.ts',
);

/** Written by `npm run build` (src/entry/bundle-workflows.ts) at the root of dist/. */
export const PREBUILT_BUNDLE_PATH = path.resolve(__dirname, '..', '..', 'workflow-bundle.js');

/**
 * The compiled build runs the bundle made at build time: bundling at every start costs seconds of CPU and needs
 * webpack's loaders at run time. Under tsx (development, tests) the worker bundles workflows/ itself, so edits are
 * picked up without a build.
 */
export function defaultWorkflowSource():
  { workflowsPath: string } | { workflowBundle: { codePath: string } } {
  if (!COMPILED) return { workflowsPath: WORKFLOWS_PATH };
  if (!existsSync(PREBUILT_BUNDLE_PATH)) {
    throw new Error(
      `${PREBUILT_BUNDLE_PATH} is missing: build with \`npm run build\`, which writes it beside the compiled code`,
    );
  }
  return { workflowBundle: { codePath: PREBUILT_BUNDLE_PATH } };
}

export interface RampWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: RampActivities;
  /** A pre-built bundle (tests build it once per run); otherwise defaultWorkflowSource(). */
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
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : defaultWorkflowSource()),
  });
}
