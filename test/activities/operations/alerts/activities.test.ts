import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { createAlertActivities } from '../../../../activities/operations/alerts/activities';
import type { ActivityDeps } from '../../../../activities/deps';
import { listIncidents } from '../../../../src/ledger/incidents';
import type { AlertInput } from '../../../../workflows/operations/alerts/types';
import { testActivityConfig } from '../../../helpers/activities';
import { freshTestDatabase, type TestDatabase } from '../../../helpers/database';

const ALERT: AlertInput = {
  kind: 'gas-low',
  message: 'Gas wallet gas-1 holds 3 TRX',
  workflowId: 'ops/gas-monitor',
  details: { network: 'networks/tron-mainnet', gasWalletId: 'gas-1' },
};
const KEY = 'gas-low/networks/tron-mainnet';
const info = (activityId: string) => ({
  taskQueue: 'ops-queue',
  activityId,
  workflowExecution: { workflowId: 'ops/gas-monitor', runId: 'run-1' },
});

let database: TestDatabase;
beforeEach(async () => {
  database = await freshTestDatabase();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await database.close();
});

function setup(settings: { webhookUrl?: string } = {}) {
  const logger = pino({ level: 'silent' });
  const error = jest.spyOn(logger, 'error');
  const info = jest.spyOn(logger, 'info');
  const deps = {
    logger,
    ledger: database.db,
    config: testActivityConfig({
      alerts: { webhookTimeoutMs: 1000, ...(settings.webhookUrl ? { webhookUrl: settings.webhookUrl } : {}) },
    }),
  } as unknown as ActivityDeps;
  return { activities: createAlertActivities(deps), error, info };
}

const open = async () => (await listIncidents(database.db, { status: 'open' }, 100)).data;

describe('raiseAlert', () => {
  test('opens the incident of its key in the ledger and logs it once; a raise by another only counts', async () => {
    const { activities, error } = setup();
    expect(await new MockActivityEnvironment(info('7')).run(() => activities.raiseAlert(ALERT))).toEqual({
      delivered: 'log',
      key: KEY,
      isNew: true,
    });
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]![1]).toBe('ALERT gas-low: Gas wallet gas-1 holds 3 TRX');
    expect(
      await new MockActivityEnvironment(info('9')).run(() =>
        activities.raiseAlert({ ...ALERT, details: { ...ALERT.details, balance: '2' } }),
      ),
    ).toEqual({ delivered: 'deduplicated', key: KEY, isNew: false });
    expect(error).toHaveBeenCalledTimes(1);
    expect(await open()).toEqual([
      expect.objectContaining({
        key: KEY,
        kind: 'gas-low',
        network: 'networks/tron-mainnet',
        occurrences: 2,
        openedBy: 'ops/gas-monitor/run-1/7',
        details: { network: 'networks/tron-mainnet', gasWalletId: 'gas-1', balance: '2' },
      }),
    ]);
  });

  test('the webhook gets the alert text; a retry of the opening raise posts again without logging again', async () => {
    const fetch = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 200 }));
    const { activities, error } = setup({ webhookUrl: 'https://hooks.example/secret' });
    const env = new MockActivityEnvironment(info('7'));
    expect(await env.run(() => activities.raiseAlert(ALERT))).toMatchObject({
      delivered: 'log+webhook',
      isNew: true,
    });
    expect(await env.run(() => activities.raiseAlert(ALERT))).toMatchObject({
      delivered: 'log+webhook',
      isNew: false,
    });
    expect(error).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://hooks.example/secret');
    expect(JSON.parse(init!.body as string)).toEqual({
      text: '[ramp-orchestrator] gas-low: Gas wallet gas-1 holds 3 TRX (ops/gas-monitor)',
    });
  });

  test('a webhook answering other than 2xx fails the attempt (retried), never naming the URL', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 503 }));
    const { activities } = setup({ webhookUrl: 'https://hooks.example/secret' });
    const failure = await new MockActivityEnvironment(info('7'))
      .run(() => activities.raiseAlert(ALERT))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: 'AlertWebhookUnavailable',
      message: 'alert webhook answered HTTP 503',
    });
    expect(String((failure as Error).message)).not.toContain('secret');
  });
});

describe('resolveAlert', () => {
  const RESOLVE = { kind: 'gas-low' as const, details: ALERT.details, resolution: 'funded' };

  test('closes the incident by the same key and logs the resolved notice; nothing open: nothing logged', async () => {
    const { activities, info: logged } = setup();
    await new MockActivityEnvironment(info('7')).run(() => activities.raiseAlert(ALERT));
    expect(await new MockActivityEnvironment(info('8')).run(() => activities.resolveAlert(RESOLVE))).toEqual({
      key: KEY,
      wasOpen: true,
    });
    expect(logged).toHaveBeenCalledWith(
      {
        alertResolved: { kind: 'gas-low', key: KEY, firstSeen: expect.any(String), occurrences: 1 },
      },
      'RESOLVED gas-low: funded',
    );
    expect(await open()).toEqual([]);
    const [resolved] = (await listIncidents(database.db, { status: 'resolved' }, 10)).data;
    expect(resolved).toMatchObject({ key: KEY, resolution: 'funded', resolvedBy: 'ops/gas-monitor/run-1/8' });

    logged.mockClear();
    expect(await new MockActivityEnvironment(info('9')).run(() => activities.resolveAlert(RESOLVE))).toEqual({
      key: KEY,
      wasOpen: false,
    });
    expect(logged).not.toHaveBeenCalled();
  });
});
