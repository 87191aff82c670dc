/**
 * Writes recorded histories for the replay test (test/workflows/replay.temporal.test.ts). The recorded histories are
 * how running workflows behaved (from 1.0 on): a change to a workflow's shape must still replay every one of them, so
 * an existing file is never overwritten. Record a new path's history with RECORD_HISTORIES=1; to record one again on
 * purpose, delete its file first.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';

/**
 * The SDK's conversion of a history to and from the JSON a history is exported in: an SDK internal that product code
 * never needs (its other internals are behind src/temporal/sdk-internals.ts), here once for the tests.
 */
export { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';

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
  mkdirSync(HISTORIES_DIR, { recursive: true });
  writeFileSync(file, historyToJSON(await handle.fetchHistory()));
  process.stdout.write(`[histories] recorded ${name}.json\n`);
}
