/**
 * A worker for the floor workflows (bench/floor/workflows.ts) in the bench's process, with the worker tuning the
 * leg gives it, on a task queue of its own; and the calls that drive them, shaped as the product's are.
 */
import path from 'node:path';
import { type Client, WithStartWorkflowOperation } from '@temporalio/client';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Worker,
  type WorkflowBundle,
} from '@temporalio/worker';
import type { WorkerTuning } from '../../src/config/worker';
import { workerTuningOptions } from '../../src/temporal/worker';
import { BENCH_NAMESPACE } from '../lib/context';
import { RUN_TAG } from '../lib/measurement';
import { type FloorWallet, walletFloorActivities } from './activities';
import type { OperatorClient } from '../../src/operator/client';
import { floorEventSignal, floorSeenQuery, floorWalletUpdate } from './messages';
import type { floorProcessWorkflow, floorWalletWorkflow } from './workflows';

/** Bundled once per bench run, whichever legs use it. */
let bundle: Promise<WorkflowBundle> | undefined;
const floorBundle = () =>
  (bundle ??= bundleWorkflowCode({
    workflowsPath: path.resolve(__dirname, 'workflows.ts'),
    logger: new DefaultLogger('WARN'),
  }));

/** A floor workflow's ID: the floor worker's label, its kind and the caller's key, unique to this bench run. */
export const floorWorkflowId = (label: string, kind: 'wallet' | 'process', key: string): string =>
  `floor-${kind}/${label}/${RUN_TAG}/${key}`;

export interface FloorWorker {
  /** The floor's deposit wallet for `label`: update-with-start, as ensureDepositWallet is made. */
  wallet(label: string, local: boolean): Promise<FloorWallet>;
  /** Signal `index` to the floor process `key`, started for `expected` signals when absent. */
  event(key: string, expected: number, index: number): Promise<void>;
  /** Resolves when the floor process `key` has closed. */
  closed(key: string): Promise<unknown>;
  /** The distinct signals the floor process `key` has applied. */
  seen(key: string): Promise<number>;
  close(): Promise<void>;
}

export async function startFloorWorker(options: {
  address: string;
  /** The client's namespace; the bench's unless told. */
  namespace?: string;
  client: Client;
  /** Cache, slots and pollers; without it, the SDK's defaults. */
  tuning: WorkerTuning | undefined;
  /** The operator the floor wallets are created at; without it, no floor wallet can be made. */
  operator?: OperatorClient;
  label: string;
}): Promise<FloorWorker> {
  const taskQueue = `bench-floor-${options.label}-${RUN_TAG}`;
  const connection = await NativeConnection.connect({ address: options.address });
  try {
    const worker = await Worker.create({
      connection,
      namespace: options.namespace ?? BENCH_NAMESPACE,
      taskQueue,
      workflowBundle: await floorBundle(),
      activities: options.operator ? walletFloorActivities(options.operator) : {},
      ...(options.tuning ? workerTuningOptions(options.tuning) : {}),
    });
    const running = worker.run();
    return {
      wallet: (label, local) =>
        options.client.workflow.executeUpdateWithStart(floorWalletUpdate, {
          startWorkflowOperation: new WithStartWorkflowOperation<typeof floorWalletWorkflow>(
            'floorWalletWorkflow',
            {
              workflowId: floorWorkflowId(options.label, 'wallet', label),
              taskQueue,
              args: [{ label, local }],
              workflowIdConflictPolicy: 'USE_EXISTING',
            },
          ),
        }),
      event: async (key, expected, index) => {
        await options.client.workflow.signalWithStart<typeof floorProcessWorkflow, [number]>(
          'floorProcessWorkflow',
          {
            workflowId: floorWorkflowId(options.label, 'process', key),
            taskQueue,
            args: [expected],
            signal: floorEventSignal,
            signalArgs: [index],
          },
        );
      },
      closed: (key) =>
        options.client.workflow.getHandle(floorWorkflowId(options.label, 'process', key)).result(),
      seen: (key) =>
        options.client.workflow
          .getHandle(floorWorkflowId(options.label, 'process', key))
          .query(floorSeenQuery),
      close: async () => {
        worker.shutdown();
        await running.catch(() => undefined);
        await connection.close();
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
