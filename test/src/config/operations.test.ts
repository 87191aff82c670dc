import { loadOperationsConfig } from '../../../src/config/operations';
import { loadProcessIds } from '../../../src/config/process-ids';

describe('operations configuration', () => {
  test('an empty environment gives the documented defaults', () => {
    expect(loadOperationsConfig({})).toEqual({
      gas: { minimums: { ETH: '0.002', TRX: '30' } },
      alerts: { webhookTimeoutMs: 5_000 },
      schedules: {
        gasMonitorIntervalMs: 300_000,
        autoswapsAhead: 3,
        autoswapCosts: { ETH: '0.003', TRX: '45' },
        reconcileIntervalMs: 3_600_000,
      },
    });
  });

  test('each variable lands in its section', () => {
    const config = loadOperationsConfig({
      GAS_WALLET_ID: 'gas-1',
      GAS_MIN_BALANCE_TRX: '12.5',
      ALERT_WEBHOOK_URL: 'https://hooks.example/t',
      ALERT_WEBHOOK_TIMEOUT: '2s',
      GAS_MONITOR_AUTOSWAPS_AHEAD: '7',
      RECONCILE_INTERVAL: '10m',
    });
    expect(config.gas).toEqual({ walletId: 'gas-1', minimums: { ETH: '0.002', TRX: '12.5' } });
    expect(config.alerts).toEqual({ webhookUrl: 'https://hooks.example/t', webhookTimeoutMs: 2_000 });
    expect(config.schedules).toMatchObject({ autoswapsAhead: 7, reconcileIntervalMs: 600_000 });
  });

  test('every invalid variable is listed at once', () => {
    expect(() => loadOperationsConfig({ GAS_MIN_BALANCE_ETH: '-1', RECONCILE_INTERVAL: 'soon' })).toThrow(
      /Invalid operations configuration:\n.*GAS_MIN_BALANCE_ETH.*\n.*RECONCILE_INTERVAL/,
    );
  });
});

describe('process IDs', () => {
  test('default to account-setup and ops/alerts', () => {
    expect(loadProcessIds({})).toEqual({
      accountSetupWorkflowId: 'account-setup',
      alertsWorkflowId: 'ops/alerts',
    });
  });

  test('ALERTS_WORKFLOW_ID names the incident store', () => {
    expect(loadProcessIds({ ALERTS_WORKFLOW_ID: 'ops/alerts-eu' }).alertsWorkflowId).toBe('ops/alerts-eu');
    expect(() => loadProcessIds({ ALERTS_WORKFLOW_ID: 'bad id' })).toThrow(/ALERTS_WORKFLOW_ID/);
  });
});
