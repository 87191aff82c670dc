import { inspect } from 'node:util';
import { loadOperatorConfig } from '../../../src/config/operator';
import { DEFAULT_ROUTES } from '../../../src/domain/operator-routes';

describe('loadOperatorConfig', () => {
  it('defaults point at the local sandbox', () => {
    const config = loadOperatorConfig({});
    expect(config).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      email: 'sandbox@example.com',
      passcode: expect.anything(),
      tokenLifetimeMs: 24 * 3_600_000,
      requestTimeoutMs: 15_000,
      routes: DEFAULT_ROUTES,
    });
    expect(config.passcode.reveal()).toBe('sandbox-passcode');
  });

  it('reads durations and overrides routes by name', () => {
    const config = loadOperatorConfig({
      OPERATOR_BASE_URL: 'https://operator.example.com/prefix/',
      OPERATOR_TOKEN_LIFETIME: '2s',
      OPERATOR_REQUEST_TIMEOUT: '1m',
      OPERATOR_ROUTES_JSON: JSON.stringify({ getOrder: 'GET /orders/v2/{id}' }),
    });
    expect(config.baseUrl).toBe('https://operator.example.com/prefix');
    expect(config.tokenLifetimeMs).toBe(2000);
    expect(config.requestTimeoutMs).toBe(60_000);
    expect(config.routes.getOrder).toBe('GET /orders/v2/{id}');
    expect(config.routes.getTransaction).toBe(DEFAULT_ROUTES.getTransaction);
  });

  it('rejects unknown route names, bad templates and bad JSON, listing every problem', () => {
    expect(() => loadOperatorConfig({ OPERATOR_ROUTES_JSON: '{"getOrdr":"GET /x"}' })).toThrow(
      /OPERATOR_ROUTES_JSON/,
    );
    expect(() => loadOperatorConfig({ OPERATOR_ROUTES_JSON: '{"getOrder":"FETCH /x"}' })).toThrow(/getOrder/);
    expect(() => loadOperatorConfig({ OPERATOR_ROUTES_JSON: 'not json' })).toThrow(/JSON object/);
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
