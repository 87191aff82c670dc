import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { loadSandboxConfig } from '../../../src/config/sandbox';
import {
  base58Decode,
  isTronAddress,
  tronAddress,
  ethereumAddress,
  isEthereumAddress,
} from '../../../src/sandbox/addresses';
import { formatAmount, parseAmount } from '../../../src/sandbox/decimal';
import { fiatToToken, tokenToFiat } from '../../../src/sandbox/pricing';
import { Random } from '../../../src/sandbox/random';
import { getLocalCertificate } from '../../../src/tls/local-certificate';

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
    });
    expect(config).toMatchObject({
      port: 0,
      timeScale: 0.001,
      deliveryDelaysMs: [10_000, 60_000, 120_000],
      confirmationDelayMs: 5000,
      stepDelayMs: 500,
      seed: 99,
      insecureTls: false,
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
  ])('refuses %j', (env, message) => {
    expect(() => loadSandboxConfig(env)).toThrow(message);
  });
});

describe('decimal amounts and prices', () => {
  it('parses and formats without floats', () => {
    expect(formatAmount(parseAmount('0.1') + parseAmount('0.2'))).toBe('0.3');
    expect(formatAmount(parseAmount('123456789012345678901234.000000000000000001'))).toBe(
      '123456789012345678901234.000000000000000001',
    );
    expect(() => parseAmount('1e3')).toThrow();
    expect(() => parseAmount('0.0000000000000000001')).toThrow();
  });

  it('converts at 17.25 MXN per USDT minus 0.5 %, rounding down', () => {
    expect(fiatToToken('1725', 'USDT')).toBe('99.5');
    expect(fiatToToken('100', 'USDT')).toBe('5.768115'); // 5.797101... * 0.995 = 5.7681159...
    expect(tokenToFiat('1', 'USDT')).toBe('17.16'); // 17.25 * 0.995 = 17.16375
  });
});

describe('addresses', () => {
  it('generates Tron base58check addresses with the 0x41 version byte and Ethereum hex addresses', () => {
    const random = new Random(7);
    for (let index = 0; index < 50; index += 1) {
      const tron = tronAddress(random);
      expect(tron).toHaveLength(34);
      expect(isTronAddress(tron)).toBe(true);
      expect(base58Decode(tron)[0]).toBe(0x41);
      expect(isEthereumAddress(ethereumAddress(random))).toBe(true);
    }
    // A well-known real Tron address (the USDT TRC-20 contract) passes the same check; a mangled one fails.
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
  });

  it('is repeatable for a seed', () => {
    expect(new Random(5).uuid()).toBe(new Random(5).uuid());
    expect(new Random(5).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('local certificate', () => {
  it('generates a self-signed certificate for localhost and 127.0.0.1 and caches it on disk', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-tls-'));
    try {
      const first = await getLocalCertificate({ cacheDir: dir });
      const certificate = new X509Certificate(first.cert);
      expect(certificate.subjectAltName).toContain('DNS:localhost');
      expect(certificate.subjectAltName).toContain('IP Address:127.0.0.1');
      expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(first.key).toContain('PRIVATE KEY');
      const stored = await readFile(path.join(dir, 'localhost.pem'), 'utf8');
      expect(stored).toContain(first.cert.trim());
      expect(await getLocalCertificate({ cacheDir: dir })).toBe(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
