/**
 * Writes recorded histories for the replay test (test/workflows/replay.temporal.test.ts). A recorded history is
 * evidence of how workflows that ran with older code behave, so an existing file is never overwritten: recording
 * again with today's code would replace, for example, the only history of a branch taken before a patch. To record a
 * history again on purpose, delete its file first.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import {
  BASELINE_OF_PATCH,
  type BaselinePatch,
  PATCH_BASELINE,
  takenByBaseline,
} from '../../workflows/shared/patch-baseline';

export const HISTORIES_DIR = path.join(__dirname, '..', 'histories');

export interface RecordHistoryOptions {
  /** Record the history as it stands (long-lived workflows that never end by themselves). */
  running?: boolean;
  /** One run of the workflow (e.g. the first of a chain of continue-as-new runs); the latest run when absent. */
  runId?: string;
}

/**
 * With RECORD_HISTORIES=1, writes a workflow's history to test/histories/<name>.json, once the run has ended
 * (or as it stands with `running`); does nothing, saying so, when that file already exists.
 */
export async function recordHistory(
  client: Client,
  workflowId: string,
  name: string,
  options: RecordHistoryOptions = {},
): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const file = path.join(HISTORIES_DIR, `${name}.json`);
  if (existsSync(file)) {
    process.stdout.write(`[histories] ${name}.json exists and is kept (delete it to record it again)\n`);
    return;
  }
  // A named run is waited for alone, not through the runs it continued as.
  const handle = client.workflow.getHandle(workflowId, options.runId, { followRuns: !options.runId });
  if (!options.running) await handle.result().catch(() => undefined);
  writeFileSync(file, historyToJSON(await handle.fetchHistory()));
  process.stdout.write(`[histories] recorded ${name}.json\n`);
}

/** The JSON a payload holds (histories here are recorded without payload encryption). */
const payloadJson = (payload: temporal.api.common.v1.IPayload | undefined): unknown =>
  payload?.data ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : undefined;

/** True for a patch listed above the starters' baseline: checked and marked by design until a release takes it. */
const aboveBaseline = (patchId: unknown): boolean =>
  typeof patchId === 'string' &&
  Object.hasOwn(BASELINE_OF_PATCH, patchId) &&
  !takenByBaseline({ patchBaseline: PATCH_BASELINE }, patchId as BaselinePatch);

/**
 * Patch checks a run recorded: its patch markers, and the TemporalChangeVersion upserts the SDK adds to each. A patch
 * listed above the starters' baseline is checked and marked by design until a later release's baseline takes it
 * (docs/architecture.md), so it is not counted.
 */
export function patchChecksRecorded(events: readonly temporal.api.history.v1.IHistoryEvent[]): {
  markers: number;
  changeVersionUpserts: number;
} {
  return {
    markers: events.filter((event) => {
      const marker = event.markerRecordedEventAttributes;
      if (marker?.markerName !== 'core_patch') return false;
      return !aboveBaseline(
        (payloadJson(marker.details?.['patch-data']?.payloads?.[0]) as { id?: unknown })?.id,
      );
    }).length,
    changeVersionUpserts: events.filter((event) => {
      const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
      const versions = payloadJson(fields?.['TemporalChangeVersion'] ?? undefined);
      return Array.isArray(versions) && versions.some((patchId) => !aboveBaseline(patchId));
    }).length,
  };
}

/** Every run on a task queue (visibility), with the patch checks its history recorded. */
export async function patchChecksOfRuns(
  client: Client,
  taskQueue: string,
): Promise<Array<{ workflowId: string; type: string; markers: number; changeVersionUpserts: number }>> {
  const runs: Array<{ workflowId: string; type: string; markers: number; changeVersionUpserts: number }> = [];
  for await (const execution of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) {
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    runs.push({
      workflowId: execution.workflowId,
      type: execution.type,
      ...patchChecksRecorded(history.events ?? []),
    });
  }
  return runs;
}
