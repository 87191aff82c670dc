/**
 * deploy/kubernetes against what the product reads: every setting the manifests set is in the configuration
 * reference (a `_FILE` form only for a secret), each container's environment, with its secrets as files, is one its
 * entry point loads without a complaint (the database's URL where the entry opens the database), the worker's sizing
 * follows the rule of docs/configuration.md, every worker version runs its migrations in a Job its workers wait for,
 * and every pod runs non-root on a read-only root filesystem with its probes. (`kustomize build`, the schema
 * validation and the database wiring of every overlay run in .ci/run: scripts/check-kubernetes.sh.)
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SearchAttributeType } from '@temporalio/common';
import { parseAllDocuments } from 'yaml';
import { loadApiConfig } from '../../src/config/api';
import { loadDatabaseConfig, requiredDatabaseUrl } from '../../src/config/database';
import { loadEncryptionConfig } from '../../src/config/encryption';
import { loadObservabilityConfig } from '../../src/config/observability';
import { loadOperatorConfig } from '../../src/config/operator';
import { loadReceiverConfig } from '../../src/config/receiver';
import { allSettings } from '../../src/config/reference';
import { loadTemporalConfig } from '../../src/config/temporal';
import { loadWorkflowTimings } from '../../src/config/timings';
import { cacheSizing, loadWorkerConfig } from '../../src/config/worker';
import { ALL_SEARCH_ATTRIBUTES } from '../../src/domain/search-attributes';

const ROOT = path.join(__dirname, '..', '..');
const K8S = path.join(ROOT, 'deploy', 'kubernetes');
const OVERLAYS = readdirSync(path.join(K8S, 'overlays'));

interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: Array<{ name: string; value?: string }>;
  envFrom?: unknown[];
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface Resource {
  kind: string;
  metadata: { name: string };
  spec?: {
    triggers?: Array<{ metadata: Record<string, string> }>;
    template?: {
      spec: {
        initContainers?: Container[];
        containers: Container[];
        securityContext?: { runAsNonRoot?: boolean };
        volumes?: Array<{ secret?: { items?: Array<{ key: string }> } }>;
      };
    };
  };
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return yamlFiles(file);
    return file.endsWith('.yaml') && name !== 'kustomization.yaml' ? [file] : [];
  });
}
const resourcesOf = (file: string) =>
  parseAllDocuments(readFileSync(file, 'utf8')).map((document) => document.toJS() as Resource);
const all = yamlFiles(K8S).flatMap(resourcesOf);
const workloads = all.filter((resource) => resource.spec?.template);
/** Our containers (a worker version's image has a placeholder of its own): Temporal's admin tools run a job of their own. */
const OUR_IMAGES = new Set(['ramp-orchestrator', 'ramp-orchestrator-worker']);
const containersOf = (resource: Resource) => [
  ...(resource.spec!.template!.spec.initContainers ?? []),
  ...resource.spec!.template!.spec.containers,
];
const ours = workloads.flatMap((resource) =>
  containersOf(resource).filter((container) => OUR_IMAGES.has(container.image)),
);
/** The compiled entry a container runs (an init container's may stand in a shell loop). */
const entryOf = (container: Container) =>
  /dist\/src\/entry\/[\w-]+\.js/.exec((container.command ?? []).join(' '))?.[0];

/** KEY=VALUE lines of the base's settings, and an overlay's literals on top (configMapGenerator, behavior merge). */
function keyValues(lines: string[]): Record<string, string> {
  return Object.fromEntries(
    lines
      .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
const baseSettings = keyValues(readFileSync(path.join(K8S, 'base', 'settings.env'), 'utf8').split('\n'));
const overlaySettings = (overlay: string) => ({
  ...baseSettings,
  ...keyValues(
    [
      ...readFileSync(path.join(K8S, 'overlays', overlay, 'kustomization.yaml'), 'utf8').matchAll(
        /^\s+- ([A-Z][A-Z0-9_]*=.*)$/gm,
      ),
    ].map((match) => match[1]!),
  ),
});

/** What each entry point loads from its environment at start. */
type Loader = (env: Record<string, string>) => unknown;
/** The entries that open the database refuse to start without its URL. */
const database: Loader = (env) => requiredDatabaseUrl(loadDatabaseConfig(env), 'process');
const LOADERS: Record<string, Loader[]> = {
  'worker.js': [
    database,
    loadTemporalConfig,
    loadWorkerConfig,
    loadOperatorConfig,
    loadReceiverConfig,
    loadObservabilityConfig,
    loadEncryptionConfig,
    loadWorkflowTimings,
  ],
  'receiver.js': [
    loadTemporalConfig,
    loadReceiverConfig,
    loadOperatorConfig,
    loadObservabilityConfig,
    loadEncryptionConfig,
  ],
  'api.js': [database, loadTemporalConfig, loadApiConfig, loadObservabilityConfig, loadEncryptionConfig],
  'codec-server.js': [loadEncryptionConfig],
  'schedules-apply.js': [loadTemporalConfig, loadEncryptionConfig],
  // A typed client: Temporal and the database.
  'account-setup.js': [database, loadTemporalConfig, loadEncryptionConfig],
  'db-migrate.js': [database],
};

/** Names the product's own tools read that are not its settings: Node's. */
const NOT_SETTINGS = new Set(['NODE_OPTIONS']);
const settings = new Map(allSettings().map((setting) => [setting.name, setting]));
const reference = readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');

describe('deploy/kubernetes', () => {
  test('every setting the manifests set is in docs/configuration.md, a _FILE form only for a secret', () => {
    const named = new Set<string>([
      ...Object.keys(baseSettings),
      ...OVERLAYS.flatMap((overlay) => Object.keys(overlaySettings(overlay))),
      ...ours.flatMap((container) => (container.env ?? []).map((variable) => variable.name)),
      // KEDA reads these from the worker's environment.
      ...all.flatMap((resource) =>
        (resource.spec?.triggers ?? []).flatMap((trigger) =>
          Object.entries(trigger.metadata)
            .filter(([key]) => key.endsWith('FromEnv'))
            .map(([, name]) => name),
        ),
      ),
    ]);
    expect(named.size).toBeGreaterThan(20);
    const problems = [...named]
      .filter((name) => !NOT_SETTINGS.has(name))
      .flatMap((name) => {
        const base = name.endsWith('_FILE') ? name.slice(0, -'_FILE'.length) : name;
        const setting = settings.get(base);
        if (!setting) return [`${name}: not a setting of docs/configuration.md`];
        if (!reference.includes(`\`${base}\``)) return [`${name}: missing from docs/configuration.md`];
        if (base !== name && !setting.secret) return [`${name}: only a secret has a _FILE form`];
        return [];
      });
    expect(problems).toEqual([]);
    // Every key the pods take from the Secret is a secret setting.
    const keys = workloads.flatMap((resource) =>
      (resource.spec!.template!.spec.volumes ?? []).flatMap((volume) =>
        (volume.secret?.items ?? []).map((item) => item.key),
      ),
    );
    expect(keys.filter((key) => !settings.get(key)?.secret)).toEqual([]);
  });

  test.each(OVERLAYS)('%s: each container loads its settings, its secrets read from files', (overlay) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'k8s-secrets-'));
    const secrets: Record<string, string> = {
      OPERATOR_PASSCODE: 'operator-passcode',
      RECEIVER_TRANSACTION_SECRET: 't'.repeat(32),
      RECEIVER_ORDER_SECRET: 'o'.repeat(32),
      API_KEY: 'k'.repeat(32),
      METRICS_TOKEN: 'm'.repeat(32),
      CLIENT_WEBHOOK_URLS: 'https://backend.example/ramp-events',
      CLIENT_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      PAYLOAD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 2).toString('base64')}`,
      TEMPORAL_API_KEY: 'temporal-api-key',
      DATABASE_URL: 'postgres://ramp:0123abcd@postgres.internal:5432/ramp?sslmode=require',
    };
    for (const [name, value] of Object.entries(secrets)) writeFileSync(path.join(dir, name), `${value}\n`);
    for (const name of ['tls.crt', 'tls.key']) writeFileSync(path.join(dir, name), 'PEM');
    const asHere = (value: string) => value.replace(/^\/run\/secrets\/(ramp|temporal-tls)\//, `${dir}/`);
    const configMap = Object.fromEntries(
      Object.entries(overlaySettings(overlay)).map(([key, value]) => [key, asHere(value)]),
    );
    for (const container of ours) {
      const env: Record<string, string> = {
        HOME: dir,
        ...configMap,
        ...Object.fromEntries(
          (container.env ?? []).map((variable) => [variable.name, asHere(variable.value ?? '')]),
        ),
      };
      const entry = entryOf(container)!;
      const loaders = LOADERS[path.basename(entry)];
      expect({ entry, known: loaders !== undefined }).toEqual({ entry, known: true });
      const loads = loaders!.map((load) => () => load(env));
      for (const load of loads) expect(load).not.toThrow();
      if (entry.endsWith('worker.js') || entry.endsWith('receiver.js') || entry.endsWith('api.js')) {
        const temporal = loadTemporalConfig(env);
        expect(temporal.address).toBeDefined();
        if (overlay.includes('api-key')) expect(temporal.connection.apiKey).toBe(secrets.TEMPORAL_API_KEY);
        if (overlay.includes('mtls')) expect(temporal.connection.tls).toBeTruthy();
      }
      if (loaders!.includes(database))
        expect(loadDatabaseConfig(env).url?.reveal()).toBe(secrets.DATABASE_URL);
      if (entry.endsWith('receiver.js')) expect(loadReceiverConfig(env).tls).toEqual({ inFront: true });
      if (entry.endsWith('codec-server.js'))
        expect(loadEncryptionConfig(env).codecServer).toMatchObject({
          host: '127.0.0.1',
          corsOrigins: [expect.any(String)],
        });
    }
  });

  test("the worker's resources follow the sizing rule: the cache fits the heap, the heap the memory limit", () => {
    const worker = ours.find((container) => container.name === 'worker')!;
    const env = Object.fromEntries(
      (worker.env ?? []).map((variable) => [variable.name, variable.value ?? '']),
    );
    const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS ?? '')?.[1]);
    const { tuning } = loadWorkerConfig(env, heapMiB);
    expect(cacheSizing(tuning).fits).toBe(true);
    const limit = worker.resources?.limits?.memory ?? '';
    const limitMiB = limit.endsWith('Gi')
      ? Number(limit.slice(0, -2)) * 1024
      : Number(limit.replace(/Mi$/, ''));
    expect(limitMiB).toBeGreaterThan(heapMiB);
  });

  test('every pod runs non-root on a read-only root filesystem, with probes and a memory limit', () => {
    for (const resource of workloads) {
      const spec = resource.spec!.template!.spec;
      expect({ name: resource.metadata.name, nonRoot: spec.securityContext?.runAsNonRoot }).toEqual({
        name: resource.metadata.name,
        nonRoot: true,
      });
      for (const container of containersOf(resource)) {
        expect(container.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
        });
        expect(container.resources?.limits?.memory).toBeDefined();
        if (resource.kind === 'Deployment' && spec.containers.includes(container)) {
          expect(container.livenessProbe).toBeDefined();
          expect(container.readinessProbe).toBeDefined();
        }
      }
    }
    const budgets = all
      .filter((resource) => resource.kind === 'PodDisruptionBudget')
      .map((resource) => resource.metadata.name);
    expect(budgets.sort()).toEqual(['ramp-api', 'ramp-receiver', 'ramp-worker']);
  });

  test('each worker version runs its migrations in a Job of its own image, and the workers and the API wait for them', () => {
    const template = path.join(K8S, 'worker');
    expect(readFileSync(path.join(template, 'kustomization.yaml'), 'utf8')).toMatch(
      /^ {2}- migrations\.yaml$/m,
    );
    const [job] = resourcesOf(path.join(template, 'migrations.yaml'));
    expect(job?.kind).toBe('Job');
    const migrate = job!.spec!.template!.spec.containers[0]!;
    expect(migrate.command).toEqual(['node', 'dist/src/entry/db-migrate.js']);
    // Suffixed with a build ID (scripts/worker-version.sh takes at most 50 characters), it stays within a Job's 63.
    expect(`${job!.metadata.name}-${'x'.repeat(50)}`.length).toBeLessThanOrEqual(63);
    const [worker] = resourcesOf(path.join(template, 'worker.yaml'));
    const [api] = resourcesOf(path.join(K8S, 'base', 'api.yaml'));
    // The Job runs the version's image: the worker's placeholder, which each version's kustomization tags.
    expect(migrate.image).toBe(worker!.spec!.template!.spec.containers[0]!.image);
    for (const deployment of [worker!, api!]) {
      const { initContainers = [], containers } = deployment.spec!.template!.spec;
      expect({ name: deployment.metadata.name, waits: initContainers.map((init) => init.command) }).toEqual({
        name: deployment.metadata.name,
        waits: [['/bin/sh', '-c', 'until node dist/src/entry/db-migrate.js --check; do sleep 5; done']],
      });
      // The check of its own release's migrations.
      expect(initContainers[0]!.image).toBe(containers[0]!.image);
    }
  });

  test('the self-hosted overlay registers exactly the search attributes the code defines', () => {
    const job = readFileSync(
      path.join(K8S, 'overlays', 'self-hosted', 'temporal-namespace-job.yaml'),
      'utf8',
    );
    const listed = [...job.matchAll(/\b(Ramp\w+)=(\w+)/g)].map((match) => `${match[1]}=${match[2]}`);
    const names: Record<string, string> = {
      [SearchAttributeType.KEYWORD]: 'Keyword',
      [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
      [SearchAttributeType.DATETIME]: 'Datetime',
    };
    expect(listed.sort()).toEqual(
      ALL_SEARCH_ATTRIBUTES.map((key) => `${key.name}=${names[key.type]}`).sort(),
    );
  });
});
