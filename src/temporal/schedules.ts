/**
 * The operations schedules, created or updated idempotently: `gas-monitor` (every GAS_MONITOR_INTERVAL)
 * runs gasMonitorWorkflow, `reconcile` (every RECONCILE_INTERVAL) runs reconcileWorkflow. Overlapping runs are
 * skipped. Called when the worker starts and by `npm run schedules:apply`.
 */
import {
  type Client,
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type ScheduleOptions,
} from '@temporalio/client';
import type { SchedulesConfig } from '../config/operations';
import {
  GAS_MONITOR_SCHEDULE_ID,
  RECONCILE_SCHEDULE_ID,
  scheduledWorkflowId,
  WORKFLOW_TYPES,
} from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import type { GasMonitorInput } from '../../workflows/operations/gas-monitor/types';
import type { ReconcileInput } from '../../workflows/operations/reconcile/types';

export interface ScheduleSettings {
  taskQueue: string;
  timings: WorkflowTimings;
  ops: SchedulesConfig;
  /** Prefix of the schedule IDs (tests sharing a server pass their own); none by default. */
  idPrefix?: string;
}

export interface AppliedSchedule {
  scheduleId: string;
  action: 'created' | 'updated';
  intervalMs: number;
}

export function scheduleDefinitions(settings: ScheduleSettings): ScheduleOptions[] {
  const prefix = settings.idPrefix ?? '';
  const gasInput: GasMonitorInput = { timings: settings.timings };
  const reconcileInput: ReconcileInput = {
    timings: settings.timings,
    intervalMs: settings.ops.reconcileIntervalMs,
  };
  const common = { policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' } } as const;
  return [
    {
      scheduleId: `${prefix}${GAS_MONITOR_SCHEDULE_ID}`,
      spec: { intervals: [{ every: settings.ops.gasMonitorIntervalMs }] },
      action: {
        type: 'startWorkflow',
        workflowType: WORKFLOW_TYPES.gasMonitor,
        workflowId: scheduledWorkflowId(prefix, GAS_MONITOR_SCHEDULE_ID),
        taskQueue: settings.taskQueue,
        args: [gasInput],
      },
      memo: { description: 'Reads the gas wallet native balances and alerts before deposits strand' },
      ...common,
    },
    {
      scheduleId: `${prefix}${RECONCILE_SCHEDULE_ID}`,
      spec: { intervals: [{ every: settings.ops.reconcileIntervalMs }] },
      action: {
        type: 'startWorkflow',
        workflowType: WORKFLOW_TYPES.reconcile,
        workflowId: scheduledWorkflowId(prefix, RECONCILE_SCHEDULE_ID),
        taskQueue: settings.taskQueue,
        args: [reconcileInput],
      },
      memo: { description: 'Re-reads the operator for open processes and finds deposits nobody knows about' },
      ...common,
    },
  ];
}

/** Creates each schedule, or updates it in place (spec, action, policies) when it exists already. */
export async function applySchedules(client: Client, settings: ScheduleSettings): Promise<AppliedSchedule[]> {
  const applied: AppliedSchedule[] = [];
  for (const options of scheduleDefinitions(settings)) {
    const intervalMs = Number(options.spec.intervals?.[0]?.every ?? 0);
    try {
      await client.schedule.create(options);
      applied.push({ scheduleId: options.scheduleId, action: 'created', intervalMs });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(options.scheduleId).update((previous) => ({
        ...previous,
        spec: options.spec,
        action: options.action,
        policies: { ...previous.policies, ...options.policies },
      }));
      applied.push({ scheduleId: options.scheduleId, action: 'updated', intervalMs });
    }
  }
  return applied;
}
