import { loadOperationsConfig } from '../../../src/config/operations';

describe('operations configuration', () => {
  test('an empty environment gives the documented defaults', () => {
    expect(loadOperationsConfig({})).toEqual({
      gas: { minimums: { ETH: '0.002', TRX: '30' } },
      alerts: {},
      schedules: { gasMonitorIntervalMs: 300_000, reconcileIntervalMs: 3_600_000 },
    });
  });

  test('each variable lands in its section', () => {
    const config = loadOperationsConfig({
      GAS_MIN_BALANCES: 'TRX:12.5',
      ALERT_WEBHOOK_URL: 'https://hooks.example/t',
      GAS_MONITOR_INTERVAL: '1m',
      RECONCILE_INTERVAL: '10m',
    });
    expect(config.gas).toEqual({ minimums: { ETH: '0.002', TRX: '12.5' } });
    expect(config.alerts).toEqual({ webhookUrl: 'https://hooks.example/t' });
    expect(config.schedules).toEqual({ gasMonitorIntervalMs: 60_000, reconcileIntervalMs: 600_000 });
  });

  test('every invalid variable is listed at once', () => {
    expect(() => loadOperationsConfig({ GAS_MIN_BALANCES: 'ETH:-1', RECONCILE_INTERVAL: 'soon' })).toThrow(
      /Invalid operations configuration:\n.*GAS_MIN_BALANCES.*"ETH:-1".*\n.*RECONCILE_INTERVAL/,
    );
  });

  test('both minimums in one setting; a bad entry is named and an unknown asset refused', () => {
    expect(loadOperationsConfig({ GAS_MIN_BALANCES: ' ETH:0.05 , TRX:900 ' }).gas.minimums).toEqual({
      ETH: '0.05',
      TRX: '900',
    });
    expect(() => loadOperationsConfig({ GAS_MIN_BALANCES: 'ETH:0.05,BTC:1' })).toThrow(/"BTC:1"/);
    expect(() => loadOperationsConfig({ GAS_MIN_BALANCES: 'ETH:0.05:1' })).toThrow(/"ETH:0.05:1"/);
  });
});
