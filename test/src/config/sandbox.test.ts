import { loadSandboxConfig } from '../../../src/config/sandbox';

describe('sandbox configuration', () => {
  it('has the documented defaults', () => {
    const config = loadSandboxConfig({});
    expect(config).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      email: 'sandbox@example.com',
      passcode: 'sandbox-passcode',
      timeScale: 1,
      tokenLifetimeMs: 86_400_000,
      sessionIdLifetimeMs: 600_000,
      quoteTtlMs: 25_000,
      deliveryDelaysMs: [60_000, 300_000, 900_000, 1_800_000],
      confirmationDelayMs: 30_000,
      insecureTls: true,
      gas: { ETH: { topUp: '0.002', sweep: '0.001' }, TRX: { topUp: '30', sweep: '15' } },
    });
    expect(config.faults.deliveries.drop).toBe(0);
  });

  it('reads every variable', () => {
    const config = loadSandboxConfig({
      SANDBOX_PORT: '0',
      SANDBOX_TIME_SCALE: '0.001',
      SANDBOX_DELIVERY_DELAYS: '10s, 1m,2m',
      SANDBOX_CONFIRMATION_DELAY: '5s',
      SANDBOX_STEP_DELAY: '500ms',
      SANDBOX_FAULTS_JSON: '{"deliveries":{"drop":0.5},"api":{"failNext":1}}',
      SANDBOX_SEED: '99',
      SANDBOX_GAS_SWEEP_TRX: '2.5',
      SANDBOX_INSECURE_TLS: 'false',
      SANDBOX_DELIVERY_CONCURRENCY: '8',
    });
    expect(config).toMatchObject({
      port: 0,
      timeScale: 0.001,
      deliveryDelaysMs: [10_000, 60_000, 120_000],
      confirmationDelayMs: 5000,
      stepDelayMs: 500,
      seed: 99,
      insecureTls: false,
      deliveryConcurrency: 8,
    });
    expect(config.gas.TRX.sweep).toBe('2.5');
    expect(config.faults.deliveries.drop).toBe(0.5);
    expect(config.faults.api.failNext).toBe(1);
  });

  it.each([
    [{ SANDBOX_DELIVERY_DELAYS: '1m,1m,1m,1m,1m' }, /at most 5 attempts/],
    [{ SANDBOX_DELIVERY_DELAYS: '1m,31m' }, /30 minutes/],
    [{ SANDBOX_DELIVERY_DELAYS: '5m,1m' }, /must not decrease/],
    [{ SANDBOX_TIME_SCALE: '0' }, /SANDBOX_TIME_SCALE/],
    [{ SANDBOX_FAULTS_JSON: '{nope' }, /not valid JSON/],
    [{ SANDBOX_FAULTS_JSON: '{"deliveries":{"drop":2}}' }, /SANDBOX_FAULTS_JSON/],
    [{ SANDBOX_GAS_TOPUP_ETH: '-1' }, /SANDBOX_GAS_TOPUP_ETH/],
    [{ SANDBOX_STEP_DELAY: 'soon' }, /SANDBOX_STEP_DELAY/],
    [{ SANDBOX_DELIVERY_CONCURRENCY: '0' }, /SANDBOX_DELIVERY_CONCURRENCY/],
    [{ SANDBOX_DELIVERY_CONCURRENCY: '65' }, /SANDBOX_DELIVERY_CONCURRENCY/],
  ])('refuses %j', (env, message) => {
    expect(() => loadSandboxConfig(env)).toThrow(message);
  });
});
