/**
 * No Docker engine runs here, so the compose file is checked against the Compose specification's JSON schema
 * (as shipped by the dclint package) and against what our own code reads. Where the compose plugin exists,
 * `docker compose config` is the fuller check.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { SearchAttributeType } from '@temporalio/common';
import path from 'node:path';
import Ajv from 'ajv';
import draft07MetaSchema from 'ajv/dist/refs/json-schema-draft-07.json';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { loadApiConfig } from '../../src/config/api';
import { loadDatabaseConfig } from '../../src/config/database';
import { loadEncryptionConfig } from '../../src/config/encryption';
import { loadObservabilityConfig } from '../../src/config/observability';
import { loadOperatorConfig } from '../../src/config/operator';
import { loadReceiverConfig } from '../../src/config/receiver';
import { loadTemporalConfig } from '../../src/config/temporal';
import { ALL_SEARCH_ATTRIBUTES } from '../../src/domain/search-attributes';
import { buildIdProblem } from '../../src/config/worker-version';
import { POOL_SIZE } from '../../src/database/connection';
import {
  HEALTHCHECKED_PROCESSES,
  type HealthcheckedProcess,
  healthcheckUrl,
} from '../../src/observability/healthcheck-target';

/** Where each service's health check reaches its process, from the settings the compose file gives it. */
const HEALTH_URLS: Record<HealthcheckedProcess, string> = {
  worker: 'http://127.0.0.1:8081/healthz',
  receiver: 'https://127.0.0.1:8443/healthz',
  api: 'http://127.0.0.1:8080/healthz',
  'codec-server': 'http://127.0.0.1:8234/healthz',
};

const ROOT = path.join(__dirname, '..', '..');
const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');

interface ComposeService {
  image?: string;
  profiles?: string[];
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number>;
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  secrets?: Array<string | { source: string; target?: string }>;
  restart?: string;
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
  const compose = parse(composeText, { merge: true }) as {
    services: Record<string, ComposeService>;
    secrets: Record<string, { file?: string }>;
  };

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

  test('runs temporalio/server on PostgreSQL with admin-tools setup jobs, all at one pinned release, and no deprecated image', () => {
    const { services } = compose;
    expect(services.postgresql?.image).toMatch(/^postgres:\d+\.\d+$/);
    const release = /^temporalio\/server:(\d+\.\d+\.\d+)$/.exec(services.temporal?.image ?? '')?.[1];
    expect(release).toBeDefined();
    expect(services['temporal-schema']?.image).toBe(`temporalio/admin-tools:${release}`);
    expect(services['temporal-namespace']?.image).toBe(`temporalio/admin-tools:${release}`);
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:\d+\.\d+\.\d+$/);
    // temporalio/auto-setup is no longer built; nothing may float on :latest.
    for (const service of Object.values(services)) {
      if (service.image) expect(service.image).not.toMatch(/auto-setup|:latest$/);
    }
    // The server reads the project's configuration; the jobs run the project's scripts, whose failures fail them.
    expect(services.temporal?.environment?.TEMPORAL_SERVER_CONFIG_FILE_PATH).toBe(
      '/etc/temporal/ramp/server.yaml',
    );
    expect(services['temporal-schema']?.entrypoint).toEqual([
      '/bin/sh',
      '/etc/temporal/ramp/setup-schema.sh',
    ]);
    expect(services['temporal-namespace']?.entrypoint).toEqual([
      '/bin/sh',
      '/etc/temporal/ramp/setup-namespace.sh',
    ]);
    for (const script of ['setup-schema.sh', 'setup-namespace.sh']) {
      const text = readFileSync(path.join(ROOT, 'deploy', 'temporal', script), 'utf8');
      expect(text).toMatch(/^set -eu$/m);
      expect(text).not.toContain('|| true');
    }
    expect(services.temporal?.depends_on?.['temporal-schema']?.condition).toBe(
      'service_completed_successfully',
    );
    expect(services['temporal-namespace']?.depends_on?.temporal?.condition).toBe('service_healthy');
  });

  test('the namespace job registers exactly the search attributes the code defines', () => {
    const script = readFileSync(path.join(ROOT, 'deploy', 'temporal', 'setup-namespace.sh'), 'utf8');
    const listed = [...script.matchAll(/\b(Ramp\w+)=(\w+)/g)].map((match) => `${match[1]}=${match[2]}`);
    const names: Record<string, string> = {
      [SearchAttributeType.KEYWORD]: 'Keyword',
      [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
      [SearchAttributeType.DATETIME]: 'Datetime',
    };
    expect(listed.sort()).toEqual(
      ALL_SEARCH_ATTRIBUTES.map((key) => `${key.name}=${names[key.type]}`).sort(),
    );
  });

  test('worker, receiver and API share one image built once, each with a healthcheck, started after the namespace job', () => {
    const ours = ['worker', 'receiver', 'api'].map((name) => compose.services[name]!);
    expect(new Set(ours.map((service) => service.image)).size).toBe(1);
    expect(ours.filter((service) => service.build !== undefined)).toHaveLength(1);
    for (const [name, service] of ['worker', 'receiver', 'api'].map(
      (name) => [name, compose.services[name]!] as const,
    )) {
      // Each asks its own process's /healthz, at the port that process's settings give.
      expect(service.healthcheck?.test).toEqual([
        'CMD',
        'node',
        'dist/src/entry/healthcheck.js',
        '--process',
        name,
      ]);
      expect(service.depends_on?.['temporal-namespace']?.condition).toBe('service_completed_successfully');
    }
    // Every long-running service says when it is healthy (the one-shot jobs end instead; the UI image has no probe).
    const longRunning = Object.entries(compose.services).filter(
      ([name]) =>
        ![
          'temporal-schema',
          'temporal-namespace',
          'ramp-database',
          'db-migrate',
          'db-migrate-next',
          'release',
          'temporal-ui',
        ].includes(name),
    );
    expect(
      longRunning.filter(([, service]) => service.healthcheck === undefined).map(([name]) => name),
    ).toEqual([]);
  });

  test('our services run compiled entry points and their environment is what our config reads', () => {
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
      'dist/src/entry/worker.js': (resolved) => loadReceiverConfig(resolved),
      'dist/src/entry/receiver.js': (resolved) => [
        loadReceiverConfig(resolved),
        requireMetricsToken(resolved),
      ],
      'dist/src/entry/api.js': (resolved) => [loadApiConfig(resolved), requireMetricsToken(resolved)],
    };
    const ours = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
    expect(ours.length).toBeGreaterThan(0);
    for (const [, service] of ours) {
      const [node, script] = service.command ?? [];
      expect(node).toBe('node');
      // The compiled file comes from this source file (npm run build).
      expect(existsSync(path.join(ROOT, script!.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
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

  test('each worker polls as the version its image tag names, and the release job makes that version current', () => {
    const tagged = (tag: string | undefined) => (text: string) =>
      interpolate(text, tag === undefined ? {} : { RAMP_IMAGE_TAG: tag, RAMP_NEXT_IMAGE_TAG: tag });
    const { worker, release, 'worker-next': next } = compose.services;
    for (const tag of [undefined, '1.1.0']) {
      const resolve = tagged(tag);
      const buildId = resolve(worker!.command!.at(-1)!);
      expect(buildIdProblem(buildId)).toBeUndefined();
      expect(worker!.command!.map(resolve)).toEqual([
        'node',
        'dist/src/entry/worker.js',
        '--build-id',
        buildId,
      ]);
      expect(resolve(worker!.image!)).toBe(`ramp-orchestrator:${buildId}`);
      expect(release!.command!.map(resolve)).toEqual([
        'node',
        'dist/src/entry/release.js',
        '--make-current',
        buildId,
      ]);
      expect(resolve(release!.image!)).toBe(`ramp-orchestrator:${buildId}`);
      // The next release's worker, beside it, names its own tag the same way.
      const nextId = resolve(next!.command!.at(-1)!);
      expect(buildIdProblem(nextId)).toBeUndefined();
      expect(resolve(next!.image!)).toBe(`ramp-orchestrator:${nextId}`);
    }
    expect(release!.depends_on?.worker?.condition).toBe('service_healthy');
    expect(next!.profiles).toEqual(['release']);
  });

  test("each health check reaches its process at the port the service's settings give", () => {
    const env = {
      OPERATOR_BASE_URL: 'https://operator.example',
      OPERATOR_EMAIL: 'ops@example.com',
      OPERATOR_PASSCODE: 'x',
      RECEIVER_PUBLIC_URL: 'https://hooks.example',
      RECEIVER_TRANSACTION_SECRET: 'a'.repeat(32),
      RECEIVER_ORDER_SECRET: 'b'.repeat(32),
      API_KEY: 'k'.repeat(32),
      METRICS_TOKEN: 'm'.repeat(32),
    };
    for (const name of HEALTHCHECKED_PROCESSES) {
      const service = compose.services[name]!;
      const resolved = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([key, value]) => [
          key,
          interpolate(String(value), env),
        ]),
      );
      expect(service.healthcheck?.test?.at(-1)).toBe(name);
      expect(healthcheckUrl(name, resolved).href).toBe(HEALTH_URLS[name]);
    }
  });

  /** Where a service reads a compose secret: its long form's target, else /run/secrets/<name>. */
  const secretPath = (service: ComposeService, name: string) => {
    for (const secret of service.secrets ?? []) {
      if (secret === name) return `/run/secrets/${name}`;
      if (typeof secret === 'object' && secret.source === name)
        return secret.target ?? `/run/secrets/${name}`;
    }
    return undefined;
  };

  test("the product's database is another database on Temporal's PostgreSQL server, created by a one-shot job", () => {
    const { postgresql, 'ramp-database': job } = compose.services;
    // The server's own image, for its psql; the server's administrator, as the postgresql service makes it.
    expect(job?.image).toBe(postgresql?.image);
    expect(job?.depends_on?.postgresql?.condition).toBe('service_healthy');
    expect(job?.environment?.PGHOST).toBe('postgresql');
    expect(job?.environment?.PGUSER).toBe(postgresql?.environment?.POSTGRES_USER);
    expect(job?.environment?.PGPASSWORD).toBe(postgresql?.environment?.POSTGRES_PASSWORD);
    expect(job?.restart).toBe('no');
    // It reads the URL the processes read, from the same secret file.
    expect(job?.environment?.DATABASE_URL_FILE).toBe(secretPath(job!, 'database-url'));
    expect(job?.entrypoint).toEqual(['/bin/sh', '/etc/ramp/database/create-database.sh']);
    expect(job?.volumes).toContain('./deploy/database:/etc/ramp/database:ro');
    const script = readFileSync(path.join(ROOT, 'deploy', 'database', 'create-database.sh'), 'utf8');
    expect(script).toMatch(/^set -eu$/m);
    expect(script).not.toContain('|| true');
  });

  test("the migrations run from the product's image once the database exists, before the worker and the API", () => {
    const { worker, 'worker-next': next, api, receiver } = compose.services;
    const jobs = { 'db-migrate': worker!, 'db-migrate-next': next! };
    for (const [name, runs] of Object.entries(jobs)) {
      const job = compose.services[name]!;
      // The image of the worker it runs before: a release's migrations come with its worker.
      expect({ name, image: job.image }).toEqual({ name, image: runs.image });
      expect(job.command).toEqual(['node', 'dist/src/entry/db-migrate.js']);
      expect(existsSync(path.join(ROOT, 'src', 'entry', 'db-migrate.ts'))).toBe(true);
      expect(job.depends_on?.['ramp-database']?.condition).toBe('service_completed_successfully');
      expect(job.restart).toBe('no');
    }
    expect(compose.services['db-migrate-next']?.profiles).toEqual(next!.profiles);
    for (const [service, job] of [
      [worker!, 'db-migrate'],
      [api!, 'db-migrate'],
      [next!, 'db-migrate-next'],
    ] as const) {
      expect(service.depends_on?.[job]?.condition).toBe('service_completed_successfully');
      expect(service.depends_on?.['temporal-namespace']?.condition).toBe('service_completed_successfully');
    }
    // The receiver reads no database: it starts whatever the database does.
    expect(Object.keys(receiver!.depends_on ?? {})).toEqual(['temporal-namespace']);
  });

  test('every process that reads the database takes DATABASE_URL from the secret file, never from the environment', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compose-secrets-'));
    const url = 'postgres://ramp:0123abcd@postgresql:5432/ramp';
    writeFileSync(path.join(dir, 'database-url'), `${url}\n`);
    expect(compose.secrets['database-url']?.file).toBe('${DATABASE_URL_SECRET_FILE:-./secrets/database-url}');
    const readers = ['worker', 'worker-next', 'api', 'db-migrate', 'db-migrate-next', 'ramp-database'];
    for (const name of readers) {
      const service = compose.services[name]!;
      const file = secretPath(service, 'database-url');
      expect({ name, file: service.environment?.DATABASE_URL_FILE }).toEqual({ name, file });
      const config = loadDatabaseConfig({ DATABASE_URL_FILE: file!.replace('/run/secrets', dir) });
      expect(config.url?.reveal()).toBe(url);
    }
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, url: service.environment?.DATABASE_URL }).toEqual({ name, url: undefined });
      if (!readers.includes(name))
        expect({ name, secret: secretPath(service, 'database-url') }).toEqual({ name, secret: undefined });
    }
  });

  test("the server takes Temporal's connections and every process's pool, with the worker scaled to three", () => {
    const maxConnections = Number(
      /max_connections=(\d+)/.exec(compose.services.postgresql?.command?.join(' ') ?? '')?.[1],
    );
    // Each of the server's four services (frontend, history, matching, worker) may fill both of its pools.
    const serverYaml = readFileSync(path.join(ROOT, 'deploy', 'temporal', 'server.yaml'), 'utf8');
    const temporalPools = [...serverYaml.matchAll(/^\s+maxConns: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(temporalPools).toHaveLength(2);
    const temporal = 4 * temporalPools.reduce((sum, pool) => sum + pool, 0);
    // Three workers, the next release's worker and the API, and the migrations' one connection.
    const product = (3 + 1 + 1) * POOL_SIZE + 1;
    expect(maxConnections).toBeGreaterThanOrEqual(temporal + product);
  });

  test('secrets are required from the environment, never written in the file', () => {
    expect(composeText).toMatch(/OPERATOR_PASSCODE: \$\{OPERATOR_PASSCODE:\?/);
    for (const name of ['receiver', 'api'])
      expect(compose.services[name]?.environment?.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN:\?/);
    expect(() => interpolate('${OPERATOR_PASSCODE:?set it}', {})).toThrow('OPERATOR_PASSCODE is required');
  });

  test("the codec server runs its own entry for the Web UI's origin, and the UI is pointed at it", () => {
    const codec = compose.services['codec-server'] as ComposeService & {
      profiles?: string[];
      network_mode?: string;
    };
    expect(codec.command).toEqual(['node', 'dist/src/entry/codec-server.js']);
    expect(codec.profiles).toEqual(['encryption']);
    // On the host's network and its loopback: the browser showing the UI reaches it, nothing beyond this machine does.
    expect(codec.network_mode).toBe('host');
    const resolved = Object.fromEntries(
      Object.entries(codec.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), {})]),
    );
    const config = loadEncryptionConfig({
      ...resolved,
      PAYLOAD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 3).toString('base64')}`,
    });
    expect(config.codecServer.host).toBe('127.0.0.1');
    const uiPort = /^127\.0\.0\.1:(\d+):8080$/.exec(
      String((compose.services['temporal-ui'] as { ports?: string[] }).ports?.[0]),
    )?.[1];
    expect(config.codecServer.corsOrigins).toEqual([
      `http://127.0.0.1:${uiPort}`,
      `http://localhost:${uiPort}`,
    ]);
    expect(compose.services['temporal-ui']?.environment?.TEMPORAL_CODEC_ENDPOINT).toBe(
      '${TEMPORAL_CODEC_ENDPOINT:-}',
    );
  });
});
