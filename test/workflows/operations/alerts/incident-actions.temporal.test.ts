/**
 * Incidents someone on call closes: through the typed client against the real incident store, an open incident is
 * acknowledged (who and why, shown in the store and its details) and resolved by hand; what is not open, or lacks who
 * or why, is refused and changes nothing.
 */
import { freshTestDatabase, type TestDatabase } from '../../../helpers/database';
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { InvalidInputError, NotFoundError } from '../../../../src/client/errors';
import { RampClient } from '../../../../src/client/ramp-client';
import { DEFAULT_PROCESS_IDS, WORKFLOW_TYPES } from '../../../../src/domain/ids';
import { incidentKey } from '../../../../workflows/operations/alerts/incidents';
import { raiseAlertUpdate } from '../../../../workflows/operations/alerts/messages';
import type { AlertInput } from '../../../../workflows/operations/alerts/types';
import { recordHistory } from '../../../helpers/histories';
import {
  connectTestClient,
  fastTimings,
  type RunningTestWorker,
  startTestWorker,
  testServer,
} from '../../../helpers/temporal';

describe('incidents closed by a person', () => {
  let worker: RunningTestWorker;
  let ramp: RampClient;
  let client: Awaited<ReturnType<typeof connectTestClient>>['client'];
  let connection: Awaited<ReturnType<typeof connectTestClient>>['connection'];
  const alertsWorkflowId = `ops/alerts-${randomUUID()}`;
  let database: TestDatabase;

  beforeAll(async () => {
    // The store has no activities of its own.
    worker = await startTestWorker({} as never);
    ({ client, connection } = await connectTestClient());
    database = await freshTestDatabase();
    ramp = new RampClient({
      connection,
      database,
      namespace: testServer().namespace,
      taskQueue: worker.taskQueue,
      timings: fastTimings(),
      processIds: { ...DEFAULT_PROCESS_IDS, alertsWorkflowId },
    });
  });
  afterAll(async () => {
    await worker.stop();
    await database.close();
  });

  /** A raise as the alert activity makes it (update-with-start on the store). */
  async function raiseGasLow(network: string): Promise<string> {
    const alert: AlertInput = {
      kind: 'gas-low',
      message: `The gas wallet is low on ${network}`,
      workflowId: 'ops/gas-monitor',
      details: { network, balance: '0' },
    };
    const key = incidentKey(alert.kind, alert.details);
    await client.workflow.executeUpdateWithStart(raiseAlertUpdate, {
      args: [{ ...alert, key, requestId: `test/${randomUUID()}` }],
      startWorkflowOperation: new WithStartWorkflowOperation(WORKFLOW_TYPES.alerts, {
        workflowId: alertsWorkflowId,
        taskQueue: worker.taskQueue,
        workflowIdConflictPolicy: 'USE_EXISTING',
        args: [{}],
      }),
    });
    return key;
  }

  test('acknowledge, then resolve by hand: who and why are kept, and the store shows them', async () => {
    await expect(
      ramp.acknowledgeIncident({ key: 'gas-low/networks/tron-mainnet', by: 'ana', reason: 'looking' }),
    ).rejects.toBeInstanceOf(NotFoundError);

    const key = await raiseGasLow('networks/tron-mainnet');
    const acknowledged = await ramp.acknowledgeIncident({
      key,
      by: ' ana ',
      reason: 'topping up the gas wallet',
    });
    expect(acknowledged).toMatchObject({
      key,
      acknowledged: { by: 'ana', reason: 'topping up the gas wallet' },
    });
    const listed = await ramp.listAlerts();
    expect(listed.open).toHaveLength(1);
    expect(listed.open[0]!.acknowledged).toMatchObject({ by: 'ana' });

    const resolved = await ramp.resolveIncident({ key, by: 'ana', reason: 'funded with 900 TRX' });
    expect(resolved).toMatchObject({ key, resolvedBy: 'person/ana', resolution: 'funded with 900 TRX' });
    const after = await ramp.listAlerts();
    expect(after.open).toEqual([]);
    expect(after.recentlyResolved[0]).toMatchObject({ key, resolvedBy: 'person/ana' });
    expect(after.resolvedTotal).toBe(1);

    // Closed: a second resolve finds nothing open; the same cause again opens a new incident.
    await expect(ramp.resolveIncident({ key, by: 'ana', reason: 'again' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await raiseGasLow('networks/tron-mainnet');
    expect((await ramp.listAlerts()).open[0]!.acknowledged).toBeUndefined();
    await recordHistory(client, alertsWorkflowId, 'alerts-incident-actions', { running: true });
  });

  test('who and why are required, before anything reaches Temporal', async () => {
    const key = await raiseGasLow('networks/ethereum-mainnet');
    const before = await ramp.listAlerts();
    for (const action of [
      { key, by: '', reason: 'x' },
      { key, by: 'ana', reason: '   ' },
      { key, by: 'ana', reason: 'r'.repeat(501) },
    ])
      await expect(ramp.acknowledgeIncident(action)).rejects.toBeInstanceOf(InvalidInputError);
    expect(await ramp.listAlerts()).toEqual(before);
  });
});
