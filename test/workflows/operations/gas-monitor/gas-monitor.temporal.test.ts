/**
 * Operations on the real dev server + sandbox: the gas monitor schedule with the incident store.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { loadOperationsConfig } from '../../../../src/config/operations';
import { applySchedules } from '../../../../src/temporal/schedules';
import { connectTestClient } from '../../../helpers/temporal';
import { type RampStack, sandboxCall, startRampStack, waitFor } from '../../../helpers/ramp-stack';
import { recordHistory } from '../../../helpers/histories';

describe('operations: gas monitor', () => {
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
        alert: { kind: 'gas-low', network: 'networks/tron-mainnet', balance: '0', minimum: '30' },
      });
      const open = (await s.ramp.listAlerts()).data;
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({
        key: 'gas-low/networks/tron-mainnet',
        kind: 'gas-low',
        network: 'networks/tron-mainnet',
        occurrences: 3,
      });

      // Still below the minimum (30): the same incident.
      await sandboxCall(s.sandbox, 'POST', `/sandbox/v1/wallets/${s.gasWalletId}/balances`, {
        asset: 'TRX',
        amount: '20',
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
      expect((await s.ramp.listAlerts()).data).toHaveLength(0);
      expect((await s.ramp.listAlerts({ status: 'resolved' })).data[0]).toMatchObject({
        key: 'gas-low/networks/tron-mainnet',
        occurrences: 4,
      });
      await recordHistory(client, runIds[0]!, 'gas-monitor-low', { running: true });
      await recordHistory(client, runIds.at(-2)!, 'gas-monitor-resolved', { running: true });
    } finally {
      for (const id of ['gas-monitor', 'reconcile'])
        await client.schedule
          .getHandle(`${prefix}${id}`)
          .delete()
          .catch(() => undefined);
    }
  });
});
