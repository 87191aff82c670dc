/**
 * Operations on the real dev server + sandbox: the gas monitor schedule with the incident store, a
 * stranded deposit through the same alert path, and reconciliation of a deposit whose every delivery was lost.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { loadOperationsConfig } from '../../../../src/config/operations';
import { applySchedules } from '../../../../src/temporal/schedules';
import { offRampWorkflowId } from '../../../../src/domain/ids';
import type { reconcileWorkflow } from '../../../../workflows/operations/reconcile/workflow';
import { connectTestClient } from '../../../helpers/temporal';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  type RampStack,
  recordHistory,
  sandboxCall,
  startRampStack,
  waitFor,
} from '../../../helpers/ramp-stack';

/** With RECORD_HISTORIES=1, writes a (possibly still running) workflow's history for the replay test. */

describe('operations: gas monitor, alerts, reconciliation', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack | undefined;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });
  afterAll(async () => {
    await connection.close();
  });

  const gasLowLines = (s: RampStack) =>
    s.alerts().filter((line) => (line.alert as { kind?: string } | undefined)?.kind === 'gas-low');
  const resolvedLines = (s: RampStack) =>
    s.logLines().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('RESOLVED '));

  test('a drained gas wallet raises exactly one alert over several monitor runs, and one resolved notice once funded', async () => {
    stack = await startRampStack(client, connection, { gasTrx: '0' });
    const s = stack;
    await sandboxCall(s.sandbox, 'POST', `/sandbox/v1/wallets/${s.gasWalletId}/balances`, {
      asset: 'ETH',
      amount: '1',
    });
    const prefix = `test-${randomUUID().slice(0, 8)}-`;
    const ops = loadOperationsConfig({ GAS_MONITOR_INTERVAL: '1h', RECONCILE_INTERVAL: '1h' }).schedules;
    const applied = await applySchedules(client, {
      taskQueue: s.worker.taskQueue,
      timings: s.timings,
      ops,
      idPrefix: prefix,
    });
    expect(applied.map((entry) => entry.action)).toEqual(['created', 'created']);
    // Idempotent: applying again updates in place.
    expect(
      (
        await applySchedules(client, {
          taskQueue: s.worker.taskQueue,
          timings: s.timings,
          ops,
          idPrefix: prefix,
        })
      ).map((entry) => entry.action),
    ).toEqual(['updated', 'updated']);
    const schedule = client.schedule.getHandle(`${prefix}gas-monitor`);
    const runIds: string[] = [];

    async function runMonitor(): Promise<string> {
      const before = (await schedule.describe()).info.numActionsTaken;
      await schedule.trigger();
      const workflowId = await waitFor('the monitor run', async () => {
        const info = (await schedule.describe()).info;
        const last = info.recentActions.at(-1);
        return info.numActionsTaken > before && info.runningActions.length === 0 && last
          ? last.action.workflow.workflowId
          : undefined;
      });
      await client.workflow.getHandle(workflowId).result();
      runIds.push(workflowId);
      return workflowId;
    }

    try {
      for (let run = 0; run < 3; run += 1) await runMonitor();
      expect(gasLowLines(s)).toHaveLength(1);
      expect(gasLowLines(s)[0]).toMatchObject({
        level: 50,
        alert: { kind: 'gas-low', network: 'networks/tron-mainnet', balance: '0', required: '135' },
      });
      const open = await s.ramp.listAlerts({ workflowId: s.alertsWorkflowId });
      expect(open.open).toHaveLength(1);
      expect(open.open[0]).toMatchObject({
        key: 'gas-low/networks/tron-mainnet',
        kind: 'gas-low',
        network: 'networks/tron-mainnet',
        occurrences: 3,
      });

      // Above the minimum (30) but below 3 Autoswaps (135): still the same incident.
      await sandboxCall(s.sandbox, 'POST', `/sandbox/v1/wallets/${s.gasWalletId}/balances`, {
        asset: 'TRX',
        amount: '100',
      });
      await runMonitor();
      expect(gasLowLines(s)).toHaveLength(1);
      expect(resolvedLines(s)).toHaveLength(0);

      await sandboxCall(s.sandbox, 'POST', `/sandbox/v1/wallets/${s.gasWalletId}/balances`, {
        asset: 'TRX',
        amount: '1000',
      });
      await runMonitor();
      await runMonitor();
      expect(resolvedLines(s)).toHaveLength(1);
      expect(gasLowLines(s)).toHaveLength(1);
      const after = await s.ramp.listAlerts({ workflowId: s.alertsWorkflowId });
      expect(after.open).toHaveLength(0);
      expect(after.recentlyResolved[0]).toMatchObject({
        key: 'gas-low/networks/tron-mainnet',
        occurrences: 4,
      });
      await recordHistory(client, runIds[0]!, 'gas-monitor-low', { running: true });
      await recordHistory(client, runIds.at(-2)!, 'gas-monitor-resolved', { running: true });
      await recordHistory(client, s.alertsWorkflowId, 'alerts-store', { running: true });
    } finally {
      for (const id of ['gas-monitor', 'reconcile'])
        await client.schedule
          .getHandle(`${prefix}${id}`)
          .delete()
          .catch(() => undefined);
    }
  });

  test('a stranded deposit raises through the incident store and resolves when it settles', async () => {
    stack = await startRampStack(client, connection, { gasTrx: '0' });
    const s = stack;
    const user = await endUserWithWallet(s);
    const depositId = await depositCrypto(s, user.address);
    await offRampEnded(s, depositId, ['stuck']);
    const incident = await waitFor('the incident', async () =>
      (await s.ramp.listAlerts({ workflowId: s.alertsWorkflowId })).open.find(
        (entry) => entry.depositTransactionId === depositId,
      ),
    );
    expect(incident).toMatchObject({
      kind: 'gas-shortfall',
      key: `gas-shortfall/deposit/${depositId}`,
      workflowId: offRampWorkflowId(depositId),
    });
    expect(s.alerts()).toHaveLength(1);

    await sandboxCall(s.sandbox, 'POST', `/sandbox/v1/wallets/${s.gasWalletId}/balances`, {
      asset: 'TRX',
      amount: '1000',
    });
    expect((await offRampEnded(s, depositId)).status).toBe('settled');
    const after = await waitFor('the resolution', async () => {
      const state = await s.ramp.listAlerts({ workflowId: s.alertsWorkflowId });
      return state.open.length === 0 && state.recentlyResolved.length === 1 ? state : undefined;
    });
    expect(after.recentlyResolved[0]).toMatchObject({ key: `gas-shortfall/deposit/${depositId}` });
    expect(resolvedLines(s)).toHaveLength(1);
    expect(s.alerts()).toHaveLength(1);
    await recordHistory(client, offRampWorkflowId(depositId), 'offramp-stuck-alert-resolved');
  });

  test('a deposit whose every delivery was dropped is found by reconciliation and settles', async () => {
    stack = await startRampStack(client, connection, { sandbox: { faults: { deliveries: { drop: 1 } } } });
    const s = stack;
    const user = await endUserWithWallet(s);
    const depositId = await depositCrypto(s, user.address);
    // No webhook ever arrives: the sandbox completes its own side; nothing runs on ours.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(s.ramp.getOffRamp(depositId)).rejects.toThrow(/No off-ramp/);

    const reconcileId = `ops/reconcile-test-${randomUUID()}`;
    const result = await client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: reconcileId,
      taskQueue: s.worker.taskQueue,
      args: [{ timings: s.timings }],
    });
    expect(result.transactionListing).toBe(true);
    expect(result.walletsChecked).toBe(1);
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        kind: 'unknown-deposit',
        subject: `deposit ${depositId}`,
        workflowId: offRampWorkflowId(depositId),
        endUserId: user.endUserId,
      }),
    );

    const state = await offRampEnded(s, depositId);
    expect(state).toMatchObject({ status: 'settled', endUserId: user.endUserId, fiatAmount: '858.18' });
    expect(s.sandbox.deliveries().filter((attempt) => attempt.outcome === 'delivered')).toHaveLength(0);

    // A second pass finds nothing new: the off-ramp is known now.
    const again = await client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: `${reconcileId}-2`,
      taskQueue: s.worker.taskQueue,
      args: [{ timings: s.timings }],
    });
    expect(again.findings.filter((finding) => finding.kind === 'unknown-deposit')).toHaveLength(0);
    await recordHistory(client, reconcileId, 'reconcile-unknown-deposit');
  });
});
