import { loadSandboxConfig, validateSandboxConfig } from '../../../src/config/sandbox';

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
      deliveryTimeoutMs: 10_000,
      deliveryConcurrency: 1,
      confirmationDelayMs: 30_000,
      stepDelayMs: 2_000,
      insecureTls: true,
      gas: { ETH: { topUp: '0.002', sweep: '0.001' }, TRX: { topUp: '30', sweep: '15' } },
      logLevel: 'info',
    });
    expect(config.faults.deliveries.drop).toBe(0);
  });

  it('reads every variable', () => {
    const config = loadSandboxConfig({
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_EMAIL: 'ops@example.com',
      SANDBOX_PASSCODE: 'another-passcode',
      SANDBOX_TIME_SCALE: '0.001',
      SANDBOX_DELIVERY_TIMEOUT: '5s',
      SANDBOX_SEED: '99',
      SANDBOX_LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      email: 'ops@example.com',
      passcode: 'another-passcode',
      timeScale: 0.001,
      deliveryTimeoutMs: 5_000,
      seed: 99,
      logLevel: 'warn',
    });
  });

  it.each([
    [{ SANDBOX_TIME_SCALE: '0' }, /SANDBOX_TIME_SCALE/],
    [{ SANDBOX_DELIVERY_TIMEOUT: 'soon' }, /SANDBOX_DELIVERY_TIMEOUT/],
    [{ SANDBOX_SEED: '-1' }, /SANDBOX_SEED/],
    [{ SANDBOX_LOG_LEVEL: 'loud' }, /SANDBOX_LOG_LEVEL/],
  ])('refuses %j', (env, message) => {
    expect(() => loadSandboxConfig(env)).toThrow(message);
  });

  it.each([
    [[60_000, 60_000, 60_000, 60_000, 60_000], /at most 5 attempts/],
    [[60_000, 31 * 60_000], /30 minutes/],
    [[5 * 60_000, 60_000], /must not decrease/],
  ])('a schedule set in code is held to the spec: %j refused', (deliveryDelaysMs, message) => {
    expect(() => validateSandboxConfig({ ...loadSandboxConfig({}), deliveryDelaysMs })).toThrow(message);
  });
});
