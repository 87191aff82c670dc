/**
 * The incident store workflow (ops/alerts) since the incidents live in the ledger: a run continued from one that held
 * incidents hands them to the ledger and ends, its own state empty; a raise, resolve or person's action still sent to
 * it (by the activities and clients of an older version) is answered by the ledger as the store answered it, and the
 * run ends once idle. Nothing is lost on the way, and nothing stays in Temporal.
 */
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { ApplicationFailure } from '@temporalio/common';
import pino from 'pino';
import { createIncidentHandOverActivities } from '../../../../activities/operations/alerts/hand-over';
import type { RampActivities } from '../../../../activities';
import type { ClientContext } from '../../../../src/client/context';
import { listAlerts } from '../../../../src/client/operations';
import { WORKFLOW_TYPES } from '../../../../src/domain/ids';
import { INCIDENT_NOT_OPEN } from '../../../../workflows/operations/alerts/incidents';
import {
  acknowledgeIncidentUpdate,
  alertsStateQuery,
  raiseAlertUpdate,
  resolveAlertUpdate,
} from '../../../../workflows/operations/alerts/messages';
import type { Incident, ResolvedIncident } from '../../../../workflows/operations/alerts/types';
import { freshTestDatabase, type TestDatabase } from '../../../helpers/database';
import { recordHistory } from '../../../helpers/histories';
import { connectTestClient, type RunningTestWorker, startTestWorker } from '../../../helpers/temporal';

describe('the incident store workflow hands over to the ledger', () => {
  let worker: RunningTestWorker;
  let client: Awaited<ReturnType<typeof connectTestClient>>['client'];
  let database: TestDatabase;
  let context: ClientContext;

  beforeAll(async () => {
    database = await freshTestDatabase();
    const activities = createIncidentHandOverActivities({
      ledger: database.db,
      logger: pino({ level: 'silent' }),
    });
    worker = await startTestWorker(activities as unknown as RampActivities);
    ({ client } = await connectTestClient());
    context = { ledger: database.db } as ClientContext;
  });
  afterAll(async () => {
    await worker.stop();
    await database.close();
  });

  const incident = (index: number): Incident => ({
    key: `ramp-exception/deposit/d-${index}/off_quote`,
    kind: 'ramp-exception',
    network: null,
    depositTransactionId: `d-${index}`,
    message: `The off-ramp of d-${index} executed off its quote`,
    workflowId: `offramp/d-${index}`,
    lastWorkflowId: `offramp/d-${index}`,
    details: { depositTransactionId: `d-${index}`, reason: 'off_quote', endUserId: `u-${index}` },
    firstSeen: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    lastSeen: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    occurrences: 1,
    openedBy: `offramp/d-${index}/run/1`,
  });

  test('a run continued from one holding 1,000 incidents gives them to the ledger and ends, holding none', async () => {
    const open = Array.from({ length: 1_000 }, (_, index) => incident(index));
    const recentlyResolved: ResolvedIncident[] = Array.from({ length: 50 }, (_, index) => ({
      ...incident(5_000 + index),
      resolvedAt: '2026-01-02T00:00:00.000Z',
      resolution: 'settled by hand',
      resolvedBy: 'person/ana',
    }));
    const carried = {
      open,
      recentlyResolved,
      raisedTotal: 1_050,
      resolvedTotal: 50,
      runs: 7,
      since: '2025-12-01T00:00:00.000Z',
    };
    const carriedBytes = Buffer.byteLength(JSON.stringify({ carried }));
    const workflowId = `ops/alerts-${randomUUID()}`;
    const handle = await client.workflow.start(WORKFLOW_TYPES.alerts, {
      workflowId,
      taskQueue: worker.taskQueue,
      args: [{ carried }],
    });
    await handle.result();

    // Everything it held is in the ledger, listed a page at a time.
    let listed = 0;
    let pageToken: string | undefined;
    do {
      const page = await listAlerts(context, { limit: 100, ...(pageToken ? { pageToken } : {}) });
      expect(
        Buffer.byteLength(
          JSON.stringify({ data: page.data, pagination: { nextPageToken: page.nextPageToken } }),
        ),
      ).toBeLessThan(64 * 1024);
      listed += page.data.length;
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    expect(listed).toBe(1_000);
    expect((await listAlerts(context, { status: 'resolved', limit: 100 })).data).toHaveLength(50);

    // And the run holds none of it: what it would answer and carry is a few hundred bytes, down from the input's.
    const state = await handle.query(alertsStateQuery);
    expect(state).toMatchObject({ open: [], recentlyResolved: [], raisedTotal: 1_050 });
    expect(carriedBytes).toBeGreaterThan(200_000);
    expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThan(1_000);
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });

  test('the hand-over of a small store, recorded', async () => {
    const workflowId = `ops/alerts-${randomUUID()}`;
    const held = [incident(9_001), incident(9_002)];
    const handle = await client.workflow.start(WORKFLOW_TYPES.alerts, {
      workflowId,
      taskQueue: worker.taskQueue,
      args: [
        {
          carried: {
            open: held,
            recentlyResolved: [],
            raisedTotal: 2,
            resolvedTotal: 0,
            runs: 1,
            since: '2026-01-01T00:00:00.000Z',
          },
        },
      ],
    });
    await handle.result();
    const keys = (await listAlerts(context, { limit: 100 })).data.map((entry) => entry.key);
    expect(keys).toEqual(expect.arrayContaining(held.map((entry) => entry.key)));
    await recordHistory(client, workflowId, 'alerts-handed-over');
  });

  test("an older version's raise, resolve and person's action are answered by the ledger, as the store answered them", async () => {
    const workflowId = `ops/alerts-${randomUUID()}`;
    const alert = {
      kind: 'gas-low' as const,
      message: 'The gas wallet is low on TRX',
      workflowId: 'ops/gas-monitor',
      details: { network: 'networks/tron-mainnet', balance: '0' },
      key: 'gas-low/networks/tron-mainnet',
    };
    // As an older version's activity or client sends each: update-with-start on the store. Each run ends once idle,
    // so a later request may start another.
    const send = <A, R>(update: UpdateDefinition<R, [A]>, arg: A): Promise<R> =>
      client.workflow.executeUpdateWithStart(update, {
        args: [arg],
        startWorkflowOperation: new WithStartWorkflowOperation(WORKFLOW_TYPES.alerts, {
          workflowId,
          taskQueue: worker.taskQueue,
          workflowIdConflictPolicy: 'USE_EXISTING',
          args: [{}],
        }),
      });
    expect(await send(raiseAlertUpdate, { ...alert, requestId: 'monitor/run-1/1' })).toEqual({
      key: alert.key,
      isNew: true,
      notify: true,
      occurrences: 1,
    });
    const first = client.workflow.getHandle(workflowId);
    await first.result();
    await recordHistory(client, workflowId, 'alerts-forwarded-to-ledger');
    expect(await send(raiseAlertUpdate, { ...alert, requestId: 'monitor/run-2/1' })).toMatchObject({
      isNew: false,
      notify: false,
      occurrences: 2,
    });
    expect(
      await send(acknowledgeIncidentUpdate, { key: alert.key, by: 'ana', reason: 'funding it' }),
    ).toMatchObject({ key: alert.key, acknowledged: { by: 'ana', reason: 'funding it' } });
    const [open] = (await listAlerts(context, { kind: 'gas-low' })).data;
    expect(open).toMatchObject({
      key: alert.key,
      occurrences: 2,
      openedBy: 'monitor/run-1/1',
      acknowledged: { by: 'ana' },
    });

    expect(
      await send(resolveAlertUpdate, { key: alert.key, requestId: 'monitor/run-3/1', resolution: 'funded' }),
    ).toMatchObject({ key: alert.key, wasOpen: true, notify: true });
    expect((await listAlerts(context, { kind: 'gas-low' })).data).toEqual([]);

    // A person's action on what is not open is refused as the store refused it.
    const refused = await send(acknowledgeIncidentUpdate, {
      key: alert.key,
      by: 'ana',
      reason: 'late',
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    const cause = (refused as WorkflowUpdateFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe(INCIDENT_NOT_OPEN);
    // Each run ended with nothing held.
    await client.workflow.getHandle(workflowId).result();
    expect(await client.workflow.getHandle(workflowId).query(alertsStateQuery)).toMatchObject({ open: [] });
  });
});
