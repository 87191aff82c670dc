/**
 * Settings and conventions of the production shape: Temporal's connection settings through envconfig (its names
 * and temporal.toml profiles), settings that follow each other or are refused as a pair, strict command flags,
 * and the request and SDK log lines.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { helpText, parseFlags, defineCommand, UsageError } from '../../src/entry/args';
import { loadDemoConfig } from '../../src/config/demo';
import { loadReceiverConfig } from '../../src/config/receiver';
import { loadTemporalConfig } from '../../src/config/temporal';
import { loggablePath } from '../../src/http/request-logging';
import { createLogger } from '../../src/logging';
import { registerSecret } from '../../src/secrets/known-secrets';
import { PinoSdkLogger } from '../../src/temporal/sdk-logger';

const dir = mkdtempSync(path.join(os.tmpdir(), 'settings-'));
const file = (name: string, text: string) => {
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
};
// No user's ~/.config/temporalio/temporal.toml may leak into these cases.
const NO_PROFILE = { HOME: dir, XDG_CONFIG_HOME: dir };

describe('Temporal connection settings (@temporalio/envconfig)', () => {
  test("Temporal's mTLS variable names are read, with the files' contents", () => {
    const config = loadTemporalConfig({
      ...NO_PROFILE,
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_TLS_CLIENT_CERT_PATH: file('client.pem', 'CERT'),
      TEMPORAL_TLS_CLIENT_KEY_PATH: file('client.key', 'KEY'),
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: file('ca.pem', 'CA'),
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    expect(config.address).toBe('temporal.internal:7233');
    const tls = config.connection.tls as {
      clientCertPair?: { crt: Buffer; key: Buffer };
      serverRootCACertificate?: Buffer;
      serverNameOverride?: string;
    };
    expect(tls.clientCertPair?.crt.toString()).toBe('CERT');
    expect(tls.clientCertPair?.key.toString()).toBe('KEY');
    expect(tls.serverRootCACertificate?.toString()).toBe('CA');
    expect(tls.serverNameOverride).toBe('temporal.internal');
  });

  test('a temporal.toml profile is used, and the environment overrides it', () => {
    const toml = file(
      'temporal.toml',
      '[profile.prod]\naddress = "prod.example:7233"\nnamespace = "ramp-prod"\napi_key = "profile-api-key-123"\n',
    );
    const fromProfile = loadTemporalConfig({
      ...NO_PROFILE,
      TEMPORAL_CONFIG_FILE: toml,
      TEMPORAL_PROFILE: 'prod',
    });
    expect(fromProfile.address).toBe('prod.example:7233');
    expect(fromProfile.namespace).toBe('ramp-prod');
    // An API key implies TLS, as in Temporal's tools.
    expect(fromProfile.connection.tls).toBe(true);
    const overridden = loadTemporalConfig({
      ...NO_PROFILE,
      TEMPORAL_CONFIG_FILE: toml,
      TEMPORAL_PROFILE: 'prod',
      TEMPORAL_NAMESPACE: 'other',
    });
    expect(overridden.namespace).toBe('other');
  });

  test('nothing set: no address (the local dev server) and the default namespace', () => {
    const config = loadTemporalConfig({ ...NO_PROFILE });
    expect(config.address).toBeUndefined();
    expect(config.namespace).toBe('ramp-orchestrator');
    expect(config.connection.tls).toBeUndefined();
  });
});

describe('settings that follow each other', () => {
  test('the public receiver URL follows RECEIVER_PORT unless it is set', () => {
    expect(loadReceiverConfig({ RECEIVER_PORT: '9443' }).publicUrl).toBe('https://127.0.0.1:9443');
    expect(loadReceiverConfig({ RECEIVER_PORT: '9443' }).publicUrlFollowsPort).toBe(true);
    expect(
      loadReceiverConfig({ RECEIVER_PORT: '9443', RECEIVER_PUBLIC_URL: 'https://hooks.example' }).publicUrl,
    ).toBe('https://hooks.example');
  });

  test('against the sandbox, a loopback public URL on another port than RECEIVER_PORT is refused with both names', () => {
    expect(() =>
      loadReceiverConfig({ RECEIVER_PORT: '9443', RECEIVER_PUBLIC_URL: 'https://127.0.0.1:8443' }),
    ).toThrow(/RECEIVER_PUBLIC_URL .*RECEIVER_PORT is 9443/);
    // Behind a real operator a proxy may stand between: allowed.
    const real = {
      OPERATOR_BASE_URL: 'https://operator.example',
      RECEIVER_TRANSACTION_SECRET: 'a'.repeat(32),
      RECEIVER_ORDER_SECRET: 'b'.repeat(32),
    };
    expect(
      loadReceiverConfig({ ...real, RECEIVER_PORT: '9443', RECEIVER_PUBLIC_URL: 'https://127.0.0.1:8443' })
        .publicUrl,
    ).toBe('https://127.0.0.1:8443');
  });

  test("the demo's wait follows the step deadline, and a wait no longer than the deadline is refused with both names", () => {
    expect(loadDemoConfig({ RAMP_STEP_DEADLINE: '10s' }).scenarioTimeoutMs).toBe(120_000);
    expect(loadDemoConfig({ RAMP_STEP_DEADLINE: '5m' }).scenarioTimeoutMs).toBe(15 * 60_000);
    expect(
      loadDemoConfig({ RAMP_STEP_DEADLINE: '10s', DEMO_SCENARIO_TIMEOUT: '30s' }).scenarioTimeoutMs,
    ).toBe(30_000);
    expect(() => loadDemoConfig({ RAMP_STEP_DEADLINE: '5m', DEMO_SCENARIO_TIMEOUT: '120s' })).toThrow(
      /DEMO_SCENARIO_TIMEOUT \(120s\) must be longer than RAMP_STEP_DEADLINE \(5m\)/,
    );
  });
});

describe('command flags', () => {
  const spec = defineCommand({
    usage: 'npm run reconcile --',
    summary: 'Runs the reconciliation once.',
    flags: {
      json: { type: 'boolean', description: 'print JSON' },
      port: { type: 'string', valueName: 'port', description: 'a port' },
    },
  });

  test('known flags parse; --help is reported', () => {
    expect(parseFlags(spec, ['--json', '--port', '4010'])).toEqual({
      values: { json: true, port: '4010' },
      help: false,
    });
    expect(parseFlags(spec, ['-h']).help).toBe(true);
    expect(helpText(spec)).toMatch(
      /Usage: npm run reconcile -- \[options\][\s\S]*--json[\s\S]*--port <port>[\s\S]*-h, --help/,
    );
  });

  test('an unknown flag or a stray argument is an error that names it', () => {
    expect(() => parseFlags(spec, ['--jsn'])).toThrow(UsageError);
    expect(() => parseFlags(spec, ['--jsn'])).toThrow("Unknown option '--jsn'");
    expect(() => parseFlags(spec, ['extra'])).toThrow(/extra/);
    expect(() => parseFlags(spec, ['--port'])).toThrow(/--port/);
  });
});

describe('log lines', () => {
  test('request paths drop the webhook secret segment and the query string', () => {
    expect(loggablePath('/webhooks/transactions/s3cr3t-segment-value?x=1')).toBe(
      '/webhooks/transactions/[REDACTED]',
    );
    expect(loggablePath('/webhooks/orders/another-secret/')).toBe('/webhooks/orders/[REDACTED]/');
    expect(loggablePath('/v1/end-users/user-42?token=abc')).toBe('/v1/end-users/user-42');
  });

  test("the SDK's lines go through pino with its redaction", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    registerSecret('sdk-visible-secret-value');
    const sdkLogger = new PinoSdkLogger(createLogger({ level: 'info', destination }));
    sdkLogger.warn('Worker state changed sdk-visible-secret-value', {
      sdkComponent: 'worker',
      token: 'abc-token',
    });
    sdkLogger.debug('below the level');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 40,
      sdk: true,
      sdkComponent: 'worker',
      token: '[REDACTED]',
      msg: 'Worker state changed [REDACTED]',
    });
  });
});
