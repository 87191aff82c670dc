import { ApplicationFailure } from '@temporalio/common';
import type { WithStartWorkflowOperation } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { createAlertActivities } from '../../../../activities/operations/alerts/activities';
import type { ActivityDeps } from '../../../../activities/deps';
import { DEFAULT_PROCESS_IDS, type ProcessIds } from '../../../../src/domain/ids';
import type { AlertInput } from '../../../../workflows/operations/alerts/types';
import { testActivityConfig } from '../../../helpers/activities';

const ALERT: AlertInput = {
  kind: 'gas-low',
  message: 'Gas wallet gas-1 holds 3 TRX',
  workflowId: 'ops/gas-monitor',
  details: { network: 'networks/tron-mainnet', gasWalletId: 'gas-1' },
};
const INFO = {
  taskQueue: 'ops-queue',
  activityId: '7',
  workflowExecution: { workflowId: 'ops/gas-monitor', runId: 'run-1' },
};

function setup(answer: unknown, settings: { webhookUrl?: string; processIds?: ProcessIds } = {}) {
  const executeUpdateWithStart = jest.fn((..._args: unknown[]) => Promise.resolve(answer));
  const logger = pino({ level: 'silent' });
  const error = jest.spyOn(logger, 'error');
  const info = jest.spyOn(logger, 'info');
  const deps = {
    operator: {},
    temporal: {
      workflow: { executeUpdateWithStart },
      withAbortSignal: (_: AbortSignal, call: () => unknown) => call(),
    },
    logger,
    config: testActivityConfig({
      alerts: { webhookTimeoutMs: 1000, ...(settings.webhookUrl ? { webhookUrl: settings.webhookUrl } : {}) },
      processIds: settings.processIds ?? { ...DEFAULT_PROCESS_IDS, alertsWorkflowId: 'ops/test-alerts' },
    }),
  } as unknown as ActivityDeps;
  const env = new MockActivityEnvironment(INFO);
  const activities = createAlertActivities(deps);
  const call = () =>
    executeUpdateWithStart.mock.calls[0] as [
      unknown,
      { args: unknown[]; startWorkflowOperation: WithStartWorkflowOperation<never> },
    ];
  return { env, activities, executeUpdateWithStart, call, error, info };
}

afterEach(() => jest.restoreAllMocks());

describe('raiseAlert', () => {
  test('records the incident by key in the store, started if need be, and logs the new incident once', async () => {
    const { env, activities, call, error } = setup({ key: 'k', isNew: true, notify: true, occurrences: 1 });
    const outcome = await env.run(() => activities.raiseAlert(ALERT));
    expect(outcome).toEqual({ delivered: 'log', key: 'gas-low/networks/tron-mainnet', isNew: true });
    const [update, options] = call();
    expect(update).toMatchObject({ name: 'raiseAlert' });
    expect(options.args).toEqual([
      { ...ALERT, key: 'gas-low/networks/tron-mainnet', requestId: 'ops/gas-monitor/run-1/7' },
    ]);
    expect(options.startWorkflowOperation.workflowTypeOrFunc).toBe('alertsWorkflow');
    expect(options.startWorkflowOperation.options).toMatchObject({
      workflowId: 'ops/test-alerts',
      taskQueue: 'ops-queue',
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{}],
    });
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]![1]).toBe('ALERT gas-low: Gas wallet gas-1 holds 3 TRX');
  });

  test('with the default process IDs, the default incident store (ops/alerts)', async () => {
    const { env, activities, call } = setup(
      { key: 'k', isNew: false, notify: false, occurrences: 2 },
      { processIds: DEFAULT_PROCESS_IDS },
    );
    await env.run(() => activities.raiseAlert(ALERT));
    expect(call()[1].startWorkflowOperation.options.workflowId).toBe('ops/alerts');
  });

  test('a raise the store does not let notify is deduplicated: no log, no webhook', async () => {
    const fetch = jest.spyOn(globalThis, 'fetch');
    const { env, activities, error } = setup(
      { key: 'k', isNew: false, notify: false, occurrences: 4 },
      { webhookUrl: 'https://hooks.example/secret' },
    );
    expect(await env.run(() => activities.raiseAlert(ALERT))).toEqual({
      delivered: 'deduplicated',
      key: 'gas-low/networks/tron-mainnet',
      isNew: false,
    });
    expect(error).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  test('the webhook gets the alert text; a retry of the opening raise posts again without logging again', async () => {
    const fetch = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 200 }));
    const { env, activities, error } = setup(
      { key: 'k', isNew: false, notify: true, occurrences: 2 },
      { webhookUrl: 'https://hooks.example/secret' },
    );
    expect(await env.run(() => activities.raiseAlert(ALERT))).toMatchObject({
      delivered: 'log+webhook',
      isNew: false,
    });
    expect(error).not.toHaveBeenCalled();
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://hooks.example/secret');
    expect(JSON.parse(init!.body as string)).toEqual({
      text: '[ramp-orchestrator] gas-low: Gas wallet gas-1 holds 3 TRX (ops/gas-monitor)',
    });
  });

  test('a webhook answering other than 2xx fails the attempt (retried), never naming the URL', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 503 }));
    const { env, activities } = setup(
      { key: 'k', isNew: true, notify: true, occurrences: 1 },
      { webhookUrl: 'https://hooks.example/secret' },
    );
    const failure = await env.run(() => activities.raiseAlert(ALERT)).catch((error: unknown) => error);
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

  test('closes the incident by the same key and logs the resolved notice', async () => {
    const incident = { firstSeen: '2026-01-01T00:00:00.000Z', occurrences: 3 };
    const { env, activities, call, info } = setup({ key: 'k', wasOpen: true, notify: true, incident });
    expect(await env.run(() => activities.resolveAlert(RESOLVE))).toEqual({
      key: 'gas-low/networks/tron-mainnet',
      wasOpen: true,
    });
    const [update, options] = call();
    expect(update).toMatchObject({ name: 'resolveAlert' });
    expect(options.args).toEqual([
      { key: 'gas-low/networks/tron-mainnet', requestId: 'ops/gas-monitor/run-1/7', resolution: 'funded' },
    ]);
    expect(info).toHaveBeenCalledWith(
      {
        alertResolved: {
          kind: 'gas-low',
          key: 'gas-low/networks/tron-mainnet',
          firstSeen: '2026-01-01T00:00:00.000Z',
          occurrences: 3,
        },
      },
      'RESOLVED gas-low: funded',
    );
  });

  test('nothing open: nothing logged', async () => {
    const { env, activities, info } = setup({ key: 'k', wasOpen: false, notify: false });
    expect(await env.run(() => activities.resolveAlert(RESOLVE))).toEqual({
      key: 'gas-low/networks/tron-mainnet',
      wasOpen: false,
    });
    expect(info).not.toHaveBeenCalled();
  });
});
