/**
 * No Docker engine runs here, so the compose file is checked against the Compose specification's JSON schema
 * (as shipped by the dclint package) and against what our own code reads. Where the compose plugin exists,
 * `docker compose config` is the fuller check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import draft07MetaSchema from 'ajv/dist/refs/json-schema-draft-07.json';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { loadApiConfig } from '../../src/config/api';
import { loadObservabilityConfig } from '../../src/config/observability';
import { loadOperatorConfig } from '../../src/config/operator';
import { loadReceiverConfig } from '../../src/config/receiver';
import { loadTemporalConfig } from '../../src/config/temporal';

const ROOT = path.join(__dirname, '..', '..');
const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number>;
}

/** Compose-style interpolation: ${VAR:-default}, ${VAR:?message}, ${VAR}; $$ escapes a dollar. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (match, name: string | undefined, kind?: string, rest?: string) => {
      if (match === '$$') return '$';
      const current = env[name!];
      if (current !== undefined && current !== '') return current;
      if (kind === '-') return rest ?? '';
      if (kind === '?') throw new Error(`${name} is required: ${rest}`);
      return '';
    },
  );
}

/** The current Compose specification schema, as shipped (and kept up to date) by the dclint package. */
const COMPOSE_SCHEMA_PATH = path.join(ROOT, 'node_modules', 'dclint', 'schemas', 'compose.schema.json');

/** A validator for the Compose schema; the schema names draft-07 by its https URI, so that alias is registered. */
function composeValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addMetaSchema(draft07MetaSchema, 'https://json-schema.org/draft-07/schema');
  return ajv.compile(JSON.parse(readFileSync(COMPOSE_SCHEMA_PATH, 'utf8')) as object);
}

describe('docker-compose.yml', () => {
  const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };

  test('is valid against the Compose specification schema', () => {
    const validate = composeValidator();
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  test('a broken file is rejected by the same check', () => {
    const validate = composeValidator();
    expect(validate({ services: { worker: { image: 'x', ports: 'not-a-list', restart: 42 } } })).toBe(false);
  });

  test('runs Temporal on PostgreSQL, the Web UI, and our worker, receiver and API built from the Dockerfile', () => {
    const { services } = compose;
    expect(services.postgresql?.image).toMatch(/^postgres:/);
    expect(services.temporal?.environment?.DB).toBe('postgres12');
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:/);
    expect(services.worker?.build).toBe('.');
    expect(services.receiver?.command).toEqual(['npm', 'run', 'receiver']);
    expect(services.api?.command).toEqual(['npm', 'run', 'api']);
  });

  test("our services' commands are scripts of package.json and their environment is what our config reads", () => {
    const env = {
      OPERATOR_BASE_URL: 'https://operator.example',
      OPERATOR_EMAIL: 'ops@example.com',
      OPERATOR_PASSCODE: 'x',
      TEMPORAL_DB_PASSWORD: 'x',
      RECEIVER_PUBLIC_URL: 'https://hooks.example',
      RECEIVER_TRANSACTION_SECRET: 'a'.repeat(32),
      RECEIVER_ORDER_SECRET: 'b'.repeat(32),
      API_KEY: 'k'.repeat(32),
      METRICS_TOKEN: 'm'.repeat(32),
    };
    // The receiver and the API bind to all interfaces in their containers: /metrics and the readiness details need a token.
    const requireMetricsToken = (resolved: Record<string, string>) => {
      if (loadObservabilityConfig(resolved).metricsToken?.reveal() !== env.METRICS_TOKEN)
        throw new Error('METRICS_TOKEN is not passed on');
    };
    // What each service's entry point loads on top of the Temporal and operator settings.
    const extraConfig: Record<string, (env: Record<string, string>) => unknown> = {
      // The worker's account-setup activity registers the receiver's URLs, so it needs the receiver settings too.
      worker: (resolved) => loadReceiverConfig(resolved),
      receiver: (resolved) => [loadReceiverConfig(resolved), requireMetricsToken(resolved)],
      api: (resolved) => [loadApiConfig(resolved), requireMetricsToken(resolved)],
    };
    const ours = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
    expect(ours.length).toBeGreaterThan(0);
    for (const [, service] of ours) {
      const [npm, run, script] = service.command ?? [];
      expect([npm, run]).toEqual(['npm', 'run']);
      expect(packageJson.scripts[script!]).toBeDefined();
      const resolved = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([key, value]) => [
          key,
          interpolate(String(value), env),
        ]),
      );
      const temporal = loadTemporalConfig(resolved);
      expect(temporal.address).toBe('temporal:7233');
      expect(temporal.namespace).toBe('ramp-orchestrator');
      const operator = loadOperatorConfig(resolved);
      expect(operator.baseUrl).toBe('https://operator.example');
      expect(extraConfig[script!]).toBeDefined();
      expect(() => extraConfig[script!]!(resolved)).not.toThrow();
    }
  });

  test('secrets are required from the environment, never written in the file', () => {
    expect(composeText).toMatch(/OPERATOR_PASSCODE: \$\{OPERATOR_PASSCODE:\?/);
    for (const name of ['receiver', 'api'])
      expect(compose.services[name]?.environment?.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN:\?/);
    expect(() => interpolate('${OPERATOR_PASSCODE:?set it}', {})).toThrow('OPERATOR_PASSCODE is required');
  });
});
