/**
 * The production shape on a real cluster, as its operators run it, without a container engine: PostgreSQL from Debian's
 * packages with compose's server settings, the Temporal server release docker-compose.yml pins (built from source by
 * scripts/provision-cluster.sh) with compose's own environment, configuration file, dynamic config and setup jobs
 * (deploy/temporal), the product's own database on the same server (compose's ramp-database job, deploy/database, then
 * its migrations as compose's db-migrate job runs them, the URL read from a secret file), then the compiled build with
 * plain node: two workers of one version on one task queue, made current by compose's release job, the receiver, the
 * API and a sandbox operator in the operator's place. It plays the `npm start -- --once` story against them, SIGKILLs
 * one worker mid-story (the other must finish every scenario), checks the API, the ledger and the logs, and stops
 * everything with SIGTERM, each service draining and exiting 0.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { sql } from 'kysely';
import { openDatabase } from '../../src/database/connection';
import { MIGRATIONS } from '../../src/database/migrations';
import { freePort } from '../../src/http/free-port';
import { httpGet, Proc, waitForHttp200 } from '../helpers/processes';

/** Every migration this release has, as the migrate command lists them. */
const ALL_MIGRATIONS = Object.keys(MIGRATIONS).sort().join(', ');

const execFileAsync = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const NAMESPACE = 'ramp-orchestrator';
const TASK_QUEUE = 'ramp-cluster';

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  secrets?: string[];
}

/** Compose interpolation of the forms the file uses: ${VAR:-default}, ${VAR:?message}, ${VAR}. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (_match, name: string, kind?: string, rest?: string) => {
      const current = env[name];
      if (current !== undefined && current !== '') return current;
      if (kind === '-') return rest ?? '';
      if (kind === '?') throw new Error(`${name} is required: ${rest}`);
      return '';
    },
  );
}

/**
 * A service's environment as compose gives it, with container paths of its bind mounts mapped to this checkout and
 * those of its secrets (/run/secrets/<name>) to the files `secretFiles` names.
 */
function composeEnvironment(
  service: ComposeService,
  env: Record<string, string>,
  secretFiles: Record<string, string> = {},
): Record<string, string> {
  const mounts = (service.volumes ?? [])
    .map((volume) => volume.split(':'))
    .filter(([source]) => source?.startsWith('./'))
    .map(([source, target]) => ({ source: path.join(ROOT, source!), target: target! }));
  const secrets = Object.fromEntries(
    (service.secrets ?? []).map((name) => {
      if (!secretFiles[name]) throw new Error(`no file for the compose secret ${name}`);
      return [`/run/secrets/${name}`, secretFiles[name]];
    }),
  );
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, raw]) => {
      let value = interpolate(String(raw), env);
      for (const mount of mounts)
        if (value.startsWith(`${mount.target}/`)) value = mount.source + value.slice(mount.target.length);
      return [name, secrets[value] ?? value];
    }),
  );
}

/** A command's exit status and output, whatever the status. */
async function runStatus(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { env, cwd: ROOT });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as Error & { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    };
  }
}

async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { user?: string } = {},
): Promise<string> {
  const [file, argv] = options.user
    ? ['runuser', ['-u', options.user, '--', command, ...args]]
    : [command, args];
  try {
    const { stdout, stderr } = await execFileAsync(file, argv, {
      env,
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout + stderr;
  } catch (error) {
    const failed = error as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    );
  }
}

describe('the production shape on PostgreSQL: compiled workers, receiver and API', () => {
  const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'ramp-cluster-'));
  const dbPassword = randomBytes(12).toString('hex');
  // The product's role on the same server, and the URL its processes read from compose's secret file.
  const rampDbPassword = randomBytes(12).toString('hex');
  let databaseUrl = '';
  const secretFiles: Record<string, string> = {};
  const secrets = {
    RECEIVER_TRANSACTION_SECRET: randomBytes(24).toString('hex'),
    RECEIVER_ORDER_SECRET: randomBytes(24).toString('hex'),
    API_KEY: randomBytes(24).toString('hex'),
  };
  const procs: Proc[] = [];
  let tools: Record<string, string> = {};
  let pgDataDir = '';
  let pgUser: string | undefined;
  const ports: Record<string, number> = {};
  let serviceEnv: NodeJS.ProcessEnv = {};
  let workerA: Proc;
  let workerB: Proc;
  let receiver: Proc;
  let api: Proc;
  let sandbox: Proc;

  const start = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Proc => {
    const proc = new Proc(name, command, args, { env, cwd: ROOT, logFile: path.join(tmp, `${name}.log`) });
    procs.push(proc);
    return proc;
  };
  const node = (name: string, script: string, args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}) =>
    start(name, process.execPath, [path.join(ROOT, 'dist', script), ...args], { ...serviceEnv, ...extraEnv });
  /** A compose service's own arguments after `node <entry>`, as compose gives them (its default image tag). */
  const composeArgs = (service: string) =>
    (compose.services[service]?.command ?? []).slice(2).map((arg) => interpolate(arg, {}));

  beforeAll(async () => {
    // 1. Provision (cached under .cache/ after the first run) and the compiled build.
    const provisioned = await run('bash', [path.join(ROOT, 'scripts', 'provision-cluster.sh')], process.env);
    tools = Object.fromEntries(
      provisioned
        .split('\n')
        .map((line) => /^([A-Z_]+)=(.*)$/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null)
        .map((match) => [match[1]!, match[2]!]),
    );
    for (const name of ['TEMPORAL_SERVER_BIN', 'TEMPORAL_SQL_TOOL', 'POSTGRES_BIN_DIR', 'TEMPORAL_CLI_PATH'])
      expect(tools[name]).toBeTruthy();
    if (!existsSync(path.join(ROOT, 'dist', 'workflow-bundle.js')))
      throw new Error('dist/ is not built: npm run test:cluster builds it first');

    // freePort's ports lie below 32768: the server records its ports in a smallint column (cluster_membership).
    for (const name of [
      'grpc',
      'http',
      'frontendMembership',
      'matching',
      'matchingMembership',
      'history',
      'historyMembership',
      'worker',
      'workerMembership',
      'pg',
      'sandbox',
      'receiver',
      'api',
      'healthA',
      'healthB',
    ])
      ports[name] = await freePort();

    // 2. PostgreSQL on a private port and socket folder. initdb refuses root, so as root it runs as `postgres`.
    pgUser = process.getuid?.() === 0 ? 'postgres' : undefined;
    chmodSync(tmp, 0o755);
    pgDataDir = path.join(tmp, 'pg');
    mkdirSync(pgDataDir, { mode: 0o700 });
    const passwordFile = path.join(tmp, 'pg-password');
    writeFileSync(passwordFile, dbPassword, { mode: 0o600 });
    if (pgUser) {
      const { uid, gid } = JSON.parse(
        await run(
          'node',
          ['-e', 'console.log(JSON.stringify({uid:process.getuid(),gid:process.getgid()}))'],
          process.env,
          { user: pgUser },
        ),
      ) as { uid: number; gid: number };
      chownSync(pgDataDir, uid, gid);
      chownSync(passwordFile, uid, gid);
    }
    const pgBin = (tool: string) => path.join(tools.POSTGRES_BIN_DIR!, tool);
    // compose's server settings (the postgresql service's `-c` options): the connections of Temporal and the product.
    const serverOptions = (compose.services.postgresql?.command ?? []).slice(1).join(' ');
    expect(serverOptions).toMatch(/^-c max_connections=\d+$/);
    // The superuser is `temporal` with a password, as compose's postgres service makes it.
    await run(
      pgBin('initdb'),
      ['-D', pgDataDir, '-U', 'temporal', `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '-E', 'UTF8'],
      process.env,
      { user: pgUser },
    );
    await run(
      pgBin('pg_ctl'),
      [
        '-D',
        pgDataDir,
        '-l',
        path.join(pgDataDir, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${ports.pg} -k ${pgDataDir} -c listen_addresses=127.0.0.1 ${serverOptions}`,
        'start',
      ],
      process.env,
      { user: pgUser },
    );

    // 3. compose's temporal-schema job, twice: the second run must find everything in place and succeed.
    const composeEnv = { TEMPORAL_DB_PASSWORD: dbPassword };
    const dbEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...composeEnvironment(compose.services['temporal-schema']!, composeEnv),
      POSTGRES_SEEDS: '127.0.0.1',
      DB_PORT: String(ports.pg),
      SQL_TOOL: tools.TEMPORAL_SQL_TOOL,
    };
    expect(dbEnv.POSTGRES_PWD).toBe(dbPassword);
    await run('sh', [path.join(ROOT, 'deploy', 'temporal', 'setup-schema.sh')], dbEnv);
    const rerun = await run('sh', [path.join(ROOT, 'deploy', 'temporal', 'setup-schema.sh')], dbEnv);
    expect(rerun).toContain('database temporal_visibility: schema up to date');
    expect(rerun.match(/found zero updates/g)).toHaveLength(2);

    // 3b. compose's ramp-database job, twice: the product's own database and role on the same server, as the URL in
    //     the secret file names them (compose's says postgresql:5432; here the server's address on this machine).
    databaseUrl = `postgres://ramp:${rampDbPassword}@127.0.0.1:${ports.pg}/ramp`;
    secretFiles['database-url'] = path.join(tmp, 'database-url');
    writeFileSync(secretFiles['database-url'], `${databaseUrl}\n`, { mode: 0o600 });
    const rampDatabaseEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...composeEnvironment(compose.services['ramp-database']!, composeEnv, secretFiles),
      PGHOST: '127.0.0.1',
      PGPORT: String(ports.pg),
      PSQL: pgBin('psql'),
    };
    expect(rampDatabaseEnv.PGPASSWORD).toBe(dbPassword);
    expect(compose.services['ramp-database']?.image).toBe(compose.services.postgresql?.image);
    const createDatabase = () =>
      run('sh', [path.join(ROOT, 'deploy', 'database', 'create-database.sh')], rampDatabaseEnv);
    expect(await createDatabase()).toContain('database ramp: owned by role ramp');
    expect(await createDatabase()).toContain('database ramp: owned by role ramp');

    // 4. The server with compose's environment for the temporal service; only addresses and ports are this machine's.
    const serverEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...composeEnvironment(compose.services.temporal!, composeEnv),
      POSTGRES_SEEDS: '127.0.0.1',
      DB_PORT: String(ports.pg),
      BIND_ON_IP: '127.0.0.1',
      FRONTEND_GRPC_PORT: String(ports.grpc),
      FRONTEND_HTTP_PORT: String(ports.http),
      FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
      MATCHING_GRPC_PORT: String(ports.matching),
      MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
      HISTORY_GRPC_PORT: String(ports.history),
      HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
      WORKER_GRPC_PORT: String(ports.worker),
      WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
      LOG_LEVEL: 'warn',
    };
    expect(serverEnv.TEMPORAL_SERVER_CONFIG_FILE_PATH).toBe(
      path.join(ROOT, 'deploy', 'temporal', 'server.yaml'),
    );
    const server = start('temporal-server', tools.TEMPORAL_SERVER_BIN!, ['start'], serverEnv);
    const address = `127.0.0.1:${ports.grpc}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const health = await run(
        tools.TEMPORAL_CLI_PATH!,
        ['operator', 'cluster', 'health', '--address', address],
        process.env,
      ).catch((error: Error) => error.message);
      if (/SERVING/.test(health) && !/NOT_SERVING/.test(health)) break;
      if (!server.running || Date.now() > deadline)
        throw new Error(`the Temporal server did not serve:\n${health}\n${server.output.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    // 5. compose's temporal-namespace job, twice as well.
    const namespaceEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...composeEnvironment(compose.services['temporal-namespace']!, composeEnv),
      TEMPORAL_ADDRESS: address,
      TEMPORAL_CLI: tools.TEMPORAL_CLI_PATH,
    };
    expect(namespaceEnv.TEMPORAL_NAMESPACE).toBe(NAMESPACE);
    await run('sh', [path.join(ROOT, 'deploy', 'temporal', 'setup-namespace.sh')], namespaceEnv);
    expect(
      await run('sh', [path.join(ROOT, 'deploy', 'temporal', 'setup-namespace.sh')], namespaceEnv),
    ).toMatch(/namespace ramp-orchestrator exists[\s\S]*search attribute RampNetworks exists/);

    // 6. The compiled services with plain node; the sandbox stands in for the operator (OPERATOR_BASE_URL is set,
    //    so nothing runs in sandbox mode: secrets and API key are required as against a real operator). The database's
    //    URL is compose's secret file, as compose gives the worker and the API.
    const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
    const worker = compose.services.worker!;
    const databaseEnv = composeEnvironment(
      { environment: { DATABASE_URL_FILE: worker.environment!.DATABASE_URL_FILE! }, secrets: worker.secrets },
      {},
      secretFiles,
    );
    expect(databaseEnv.DATABASE_URL_FILE).toBe(secretFiles['database-url']);
    serviceEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL_FILE: databaseEnv.DATABASE_URL_FILE,
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: NAMESPACE,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
      OPERATOR_BASE_URL: sandboxUrl,
      OPERATOR_EMAIL: 'sandbox@example.com',
      OPERATOR_PASSCODE: 'sandbox-passcode',
      RECEIVER_PORT: String(ports.receiver),
      RECEIVER_PUBLIC_URL: `https://127.0.0.1:${ports.receiver}`,
      API_PORT: String(ports.api),
      ...secrets,
      // The demo's timings (`npm start` fills the same in against its sandbox).
      SANDBOX_TIME_SCALE: '0.05',
      RAMP_STEP_DEADLINE: '10s',
      RAMP_POLL_INITIAL: '1s',
      RAMP_POLL_MAXIMUM: '5s',
      SANDBOX_LOG_LEVEL: 'error',
      LOG_LEVEL: 'info',
    };

    // 6a. Before the migrations: the worker and the API refuse the database, and the check lists what is pending.
    const migrateEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...composeEnvironment(compose.services['db-migrate']!, {}, secretFiles),
    };
    const migrateCommand = compose.services['db-migrate']!.command!;
    expect(migrateCommand.slice(0, 2)).toEqual(['node', 'dist/src/entry/db-migrate.js']);
    const migrate = (...args: string[]) =>
      runStatus(
        process.execPath,
        [path.join(ROOT, migrateCommand[1]!), ...migrateCommand.slice(2), ...args],
        migrateEnv,
      );
    expect(await migrate('--check')).toEqual({ code: 2, output: `pending: ${ALL_MIGRATIONS}\n` });
    const refused = [
      node('worker-unmigrated', 'src/entry/worker.js', composeArgs('worker'), {
        WORKER_HEALTH_PORT: String(ports.healthA),
      }),
      node('api-unmigrated', 'src/entry/api.js'),
    ];
    for (const proc of refused) {
      const ended = await proc.ended;
      expect({ name: proc.name, code: ended.code }).toEqual({ name: proc.name, code: 1 });
      expect(proc.output).toContain(`The database is not migrated (pending: ${ALL_MIGRATIONS})`);
    }

    // 6b. compose's db-migrate job, twice: the second run finds nothing to do.
    expect(await migrate()).toEqual({ code: 0, output: `migrated: ${ALL_MIGRATIONS}\n` });
    expect(await migrate()).toEqual({ code: 0, output: 'up to date\n' });
    expect(await migrate('--check')).toEqual({ code: 0, output: 'up to date\n' });

    sandbox = node('sandbox', 'src/entry/sandbox.js', ['--port', String(ports.sandbox)]);
    await sandbox.waitForOutput(/listening on/, 30_000);
    receiver = node('receiver', 'src/entry/receiver.js');
    api = node('api', 'src/entry/api.js');
    workerA = node('worker-a', 'src/entry/worker.js', composeArgs('worker'), {
      WORKER_HEALTH_PORT: String(ports.healthA),
    });
    workerB = node('worker-b', 'src/entry/worker.js', composeArgs('worker'), {
      WORKER_HEALTH_PORT: String(ports.healthB),
    });
    await Promise.all([
      waitForHttp200(`https://127.0.0.1:${ports.receiver}/healthz`, receiver, 60_000),
      waitForHttp200(`http://127.0.0.1:${ports.api}/healthz`, api, 60_000),
      waitForHttp200(`http://127.0.0.1:${ports.healthA}/healthz`, workerA, 60_000),
      waitForHttp200(`http://127.0.0.1:${ports.healthB}/healthz`, workerB, 60_000),
    ]);
    // 7. compose's release job: the workers' version becomes current, so they get work.
    const release = node('release', 'src/entry/release.js', composeArgs('release'));
    const released = await release.ended;
    expect({ released, output: release.output }).toMatchObject({ released: { code: 0 } });
    expect(release.output).toMatch(/Worker Deployment ramp-cluster: current local\n/);
  }, 45 * 60_000);

  afterAll(async () => {
    for (const proc of [...procs].reverse()) await proc.stop('SIGTERM', 20_000);
    if (pgDataDir && tools.POSTGRES_BIN_DIR) {
      await run(
        path.join(tools.POSTGRES_BIN_DIR, 'pg_ctl'),
        ['-D', pgDataDir, '-m', 'fast', '-w', 'stop'],
        process.env,
        { user: pgUser },
      ).catch(() => undefined);
    }
    rmSync(tmp, { recursive: true, force: true });
  }, 120_000);

  test('both compiled workers poll the one task queue, as the version compose names', async () => {
    const buildId = composeArgs('worker').at(-1)!;
    const described = await run(
      tools.TEMPORAL_CLI_PATH!,
      [
        'task-queue',
        'describe',
        '--task-queue',
        TASK_QUEUE,
        // Temporal names a version <deployment>:<build ID>; the deployment is the task queue's.
        '--select-build-id',
        `${TASK_QUEUE}:${buildId}`,
        '--namespace',
        NAMESPACE,
        '--address',
        `127.0.0.1:${ports.grpc}`,
        '--output',
        'json',
      ],
      process.env,
    );
    for (const worker of [workerA, workerB]) expect(described).toContain(`${worker.child.pid}@`);
  });

  test('the npm start story completes while one worker is SIGKILLed mid-story', async () => {
    const demo = node('demo', 'src/entry/demo.js', ['--sandbox-url', `http://127.0.0.1:${ports.sandbox}`]);
    // Kill worker A once the first off-ramp is under way: its tasks, sticky workflows and activities move to B.
    await demo.waitForOutput(/== 5\. demo-alice sells/, 180_000);
    const killed = await workerA.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const ended = await Promise.race([
      demo.ended,
      new Promise<never>((_resolve, reject) =>
        setTimeout(() => reject(new Error(`demo did not end:\n${demo.output}`)), 540_000),
      ),
    ]);
    if (ended.code !== 0) process.stdout.write(demo.output);
    expect(demo.output).toMatch(/account setup +ready +ready +yes/);
    expect(demo.output).toMatch(/off-ramp demo-alice +settled +settled +yes/);
    expect(demo.output).toMatch(/on-ramp demo-alice +settled +settled +yes/);
    expect(demo.output).toMatch(/off-ramp demo-bob \(no gas\) +stuck \+ alert +stuck \+ alert +yes/);
    expect(ended.code).toBe(0);
    expect(workerB.running).toBe(true);
    expect((await httpGet(`http://127.0.0.1:${ports.healthB}/healthz`)).status).toBe(200);
  }, 600_000);

  test('the API serves the story it did not play: end user, alerts, readiness and process metrics', async () => {
    const base = `http://127.0.0.1:${ports.api}`;
    const auth = { authorization: `Bearer ${secrets.API_KEY}` };
    expect((await httpGet(`${base}/readyz`)).status).toBe(200);
    const alice = await httpGet(`${base}/v1/end-users/demo-alice`, auth);
    expect(alice.status).toBe(200);
    expect(alice.body).toContain('"walletId"');
    // The story leaves its off-quote exception open on purpose and ends with the gas wallet funded: the gas
    // incidents it raised are resolved.
    const open = await httpGet(`${base}/v1/alerts`, auth);
    expect(open.status).toBe(200);
    expect(open.body).toContain('"kind":"ramp-exception"');
    const resolved = await httpGet(`${base}/v1/alerts?status=resolved`, auth);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toContain('"kind":"gas-shortfall"');
    const metrics = await httpGet(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^process_cpu_user_seconds_total /m);
    expect(metrics.body).toMatch(/^ramp_processes_started\{direction="off-ramp"\} [1-9]/m);
  });

  test("the ledger is the product's own database on Temporal's PostgreSQL server, written and read as its own role", async () => {
    const database = openDatabase(databaseUrl, { applicationName: 'cluster test', poolSize: 1 });
    try {
      const server = await sql<{ datname: string }>`select datname from pg_database`.execute(database.db);
      expect(server.rows.map((row) => row.datname)).toEqual(
        expect.arrayContaining(['temporal', 'temporal_visibility', 'ramp']),
      );
      const who = await sql<{
        user: string;
        db: string;
      }>`select current_user as user, current_database() as db`.execute(database.db);
      expect(who.rows).toEqual([{ user: 'ramp', db: 'ramp' }]);
      // The story's settled ramps are booked; the surviving worker and the API hold their pools on it.
      const booked = await database.db.selectFrom('bookings').select(['direction', 'status']).execute();
      expect(booked).toEqual(
        expect.arrayContaining([
          { direction: 'off-ramp', status: 'settled' },
          { direction: 'on-ramp', status: 'settled' },
        ]),
      );
      const sessions = await sql<{ application_name: string }>`
        select distinct application_name from pg_stat_activity where datname = 'ramp'`.execute(database.db);
      expect(sessions.rows.map((row) => row.application_name)).toEqual(
        expect.arrayContaining(['ramp-orchestrator worker', 'ramp-orchestrator client']),
      );
    } finally {
      await database.close();
    }
  });

  test('logs are pino JSON with requests logged and no secret in them', () => {
    const apiLines = api.output.split('\n').filter((line) => line.startsWith('{'));
    expect(
      apiLines.some(
        (line) =>
          /"req":\{[^]*"url":"\/v1\/end-users\/demo-alice"/.test(line) && /"statusCode":200/.test(line),
      ),
    ).toBe(true);
    const receiverLines = receiver.output.split('\n').filter((line) => line.startsWith('{'));
    expect(receiverLines.some((line) => /"url":"\/webhooks\/transactions\/\[REDACTED\]"/.test(line))).toBe(
      true,
    );
    // The SDK's own lines (worker state, replay) arrive through pino too.
    expect(
      workerB.output
        .split('\n')
        .some((line) => line.startsWith('{') && /"sdk":true|"sdkComponent"/.test(line)),
    ).toBe(true);
    for (const proc of [api, receiver, workerB, sandbox]) {
      for (const secret of Object.values(secrets)) expect(proc.output).not.toContain(secret);
      expect(proc.output).not.toContain(dbPassword);
      expect(proc.output).not.toContain(rampDbPassword);
    }
  });

  test('SIGTERM drains and stops every service with status 0', async () => {
    const results = await Promise.all(
      [workerB, receiver, api, sandbox].map(async (proc) => [proc.name, await proc.stop('SIGTERM')] as const),
    );
    expect(Object.fromEntries(results)).toEqual({
      'worker-b': { code: 0, signal: null },
      receiver: { code: 0, signal: null },
      api: { code: 0, signal: null },
      sandbox: { code: 0, signal: null },
    });
  });
});
