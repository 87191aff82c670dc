/**
 * One real Temporal dev server for the whole `temporal` test project, from the project's own provisioning, and
 * the run's PostgreSQL (database-global-setup.ts).
 * No silent skip: if the CLI cannot be provisioned or the server does not start, this throws and the run fails
 * with the reason.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ensureTemporalCli } from '../../src/temporal/install-cli';
import { DEV_SERVER_TUNING, startDevServer } from '../../src/temporal/dev-server';
import { WORKFLOWS_PATH } from '../../src/temporal/worker';
import { startTestDatabase } from './database-global-setup';

export const TEST_NAMESPACE = 'ramp-orchestrator-test';

export default async function globalSetup(): Promise<void> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  await startTestDatabase(log);
  const cli = await ensureTemporalCli({ log, env: process.env });
  const server = await startDevServer({
    cliPath: cli.path,
    namespace: TEST_NAMESPACE,
    uiPort: Number(process.env.TEST_TEMPORAL_UI_PORT ?? 0),
    // npm start's tuning; in memory SQLite keeps its journal in memory, so the pragmas change little here.
    tuning: DEV_SERVER_TUNING,
    log,
  });
  (globalThis as { __temporalDevServer?: typeof server }).__temporalDevServer = server;

  // Bundle the workflows once for the run; every test worker reuses it instead of re-bundling.
  // In the system temp folder, not .data/, so that clearing the product's data never pulls it from under a run.
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'ramp-test-bundle-'));
  const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: undefined });
  const bundlePath = path.join(outDir, `workflow-bundle-${process.pid}.js`);
  writeFileSync(bundlePath, bundle.code);

  process.env.TEST_TEMPORAL_ADDRESS = server.address;
  process.env.TEST_TEMPORAL_NAMESPACE = TEST_NAMESPACE;
  process.env.TEST_TEMPORAL_UI_URL = server.uiUrl ?? '';
  process.env.TEST_TEMPORAL_CLI_PATH = cli.path;
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
  log(`[test] Temporal dev server ${server.address} (namespace ${TEST_NAMESPACE}) is up for this run`);
}
