import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { loadOperatorConfig } from '../../../src/config/operator';
import { DEFAULT_OPERATOR_PROFILE } from '../../../src/domain/operator-profile';

function profileFile(content: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'operator-config-')), 'profile.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('loadOperatorConfig', () => {
  it('defaults point at the local sandbox', () => {
    const config = loadOperatorConfig({});
    expect(config).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      email: 'sandbox@example.com',
      passcode: expect.anything(),
      tokenLifetimeMs: 24 * 3_600_000,
      requestTimeoutMs: 15_000,
      profile: DEFAULT_OPERATOR_PROFILE,
    });
    expect(config.passcode.reveal()).toBe('sandbox-passcode');
  });

  it('reads durations and the profile file over our assumptions', () => {
    const config = loadOperatorConfig({
      OPERATOR_BASE_URL: 'https://operator.example.com/prefix/',
      OPERATOR_TOKEN_LIFETIME: '2s',
      OPERATOR_REQUEST_TIMEOUT: '1m',
      OPERATOR_PROFILE: profileFile({ routes: { getOrder: 'GET /orders/v2/{id}' } }),
    });
    expect(config.baseUrl).toBe('https://operator.example.com/prefix');
    expect(config.tokenLifetimeMs).toBe(2000);
    expect(config.requestTimeoutMs).toBe(60_000);
    expect(config.profile.routes.getOrder).toBe('GET /orders/v2/{id}');
    expect(config.profile.routes.getTransaction).toBe(DEFAULT_OPERATOR_PROFILE.routes.getTransaction);
    expect(config.profile.vocabulary).toEqual(DEFAULT_OPERATOR_PROFILE.vocabulary);
  });

  it('refuses a bad profile file naming the setting, the key and the rule; and a file it cannot read', () => {
    expect(() =>
      loadOperatorConfig({ OPERATOR_PROFILE: profileFile({ routes: { getOrdr: 'GET /x' } }) }),
    ).toThrow(/OPERATOR_PROFILE\.routes: Unrecognized key: "getOrdr"/);
    expect(() =>
      loadOperatorConfig({ OPERATOR_PROFILE: profileFile({ routes: { getOrder: 'FETCH /x' } }) }),
    ).toThrow(/OPERATOR_PROFILE\.routes\.getOrder: must look like/);
    expect(() => loadOperatorConfig({ OPERATOR_PROFILE: profileFile('not json') })).toThrow(
      /OPERATOR_PROFILE: cannot read the profile file .*not JSON/,
    );
    expect(() => loadOperatorConfig({ OPERATOR_PROFILE: '/nowhere/profile.json' })).toThrow(/ENOENT/);
    expect(() =>
      loadOperatorConfig({ OPERATOR_TOKEN_LIFETIME: 'forever', OPERATOR_REQUEST_TIMEOUT: 'soon' }),
    ).toThrow(/OPERATOR_TOKEN_LIFETIME[\s\S]*OPERATOR_REQUEST_TIMEOUT/);
  });

  it('never prints the passcode', () => {
    const config = loadOperatorConfig({ OPERATOR_PASSCODE: 'very-secret-passcode' });
    expect(JSON.stringify(config)).not.toContain('very-secret-passcode');
    expect(inspect(config, { depth: 10 })).not.toContain('very-secret-passcode');
    expect(`${String(config.passcode)}`).not.toContain('very-secret-passcode');
  });
});
