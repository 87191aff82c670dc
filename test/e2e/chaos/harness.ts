/**
 * Process orchestration of the chaos suite: the Temporal dev server, the ledger's PostgreSQL, the sandbox operator,
 * the worker, the webhook receiver and the HTTP API, each its own OS process started from the project's own entry
 * point, configured only through environment variables, with its output in a log file of a temporary folder. The
 * worker is a version of the task queue's Worker Deployment, made current by the release command (`npm run
 * release`); a release starts the next version's worker beside the others and makes it current, every earlier one
 * staying up for the runs pinned to it.
 *
 * The client's backend is a stand-in endpoint inside the harness (src/demo/outcome-receiver.ts): the workers'
 * dispatchers deliver the ledger's outcome events to it, and it keeps every delivery it got.
 *
 * The harness kills these processes (SIGKILL; the dev server with the signal the profile names; PostgreSQL with
 * SIGKILL or its fast shutdown) and starts them again on the same ports, the same SQLite file and the same data
 * folder, so the operator's recipients, the clients' addresses and the ledger stay valid. A child
 * that dies without being told to is restarted too and counted, because a silent crash would otherwise pass for
 * one of our kills. Every child is killed when the harness stops, fails or its own process exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import https from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { openDatabase } from '../../../src/database/connection';
import {
  EMBEDDED_DATABASE,
  embeddedUrl,
  ensureDatabase,
  initialiseDataDir,
  postgresCommand,
} from '../../../src/database/embedded-server';
import { migrateToLatest } from '../../../src/database/migrate';
import {
  type OutcomeReceiverOptions,
  type RunningOutcomeReceiver,
  startOutcomeReceiver,
} from '../../../src/demo/outcome-receiver';
import { packageVersion } from '../../../src/config/worker-version';
import { freePort } from '../../../src/http/free-port';
import { DEV_SERVER_TUNING, devServerTuningArgs } from '../../../src/temporal/dev-server';
import { ensureTemporalCli } from '../../../src/temporal/install-cli';
import { devServerSearchAttributeArgs } from '../../../src/temporal/search-attribute-args';
import { generateLocalCertificate } from '../../../src/tls/local-certificate';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
export const CHAOS_NAMESPACE = 'ramp-chaos';
export const CHAOS_TASK_QUEUE = 'ramp-chaos';

// ------------------------------------------------------------------------------------------------ child registry

/** Every child alive, so that whatever ends the harness (exception, deadline, Ctrl-C, exit) can kill it. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: a signal is all we can send, and SIGKILL needs no cooperation.
  process.on('exit', () => killEveryChild());
}

/** Sends SIGKILL to every child still alive (synchronous). */
export function killEveryChild(): void {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

// ------------------------------------------------------------------------------------------------ one child

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** Resolves once the child serves; `since` is the log file's length when this start began. */
  ready: (child: ManagedProcess, since: number) => Promise<void>;
  /** Restart the child when it exits without having been told to (its crash is counted either way). */
  supervise: boolean;
  /** Scheduling priority of the child (0 = as the harness; positive = nicer to other work on the machine). */
  niceness: number;
  /** Whom the child runs as (PostgreSQL refuses root); the harness's own user when absent. */
  user?: { uid: number; gid: number } | undefined;
}

export class ManagedProcess {
  readonly spec: ProcessSpec;
  starts = 0;
  kills = 0;
  unexpectedExits = 0;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  private restarting: Promise<void> | null = null;

  constructor(spec: ProcessSpec) {
    this.spec = spec;
    installExitHook();
  }

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  note(line: string): void {
    writeFileSync(this.spec.logFile, `=== [chaos harness] ${new Date().toISOString()} ${line}\n`, {
      flag: 'a',
    });
  }

  /** The log from byte `since` on (a byte offset, as statSync gives it: a multi-byte character cannot shift it). */
  logText(since = 0): string {
    try {
      return readFileSync(this.spec.logFile).subarray(since).toString('utf8');
    } catch {
      return '';
    }
  }

  tail(lines = 25): string {
    return this.logText().trimEnd().split('\n').slice(-lines).join('\n');
  }

  /** Starts the child and waits until it serves. */
  async start(): Promise<void> {
    this.stopping = false;
    this.starts += 1;
    this.note(`start #${this.starts}`);
    const since = statSync(this.spec.logFile).size;
    const fd = openSync(this.spec.logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(this.spec.command, this.spec.args, {
        cwd: PROJECT_ROOT,
        env: this.spec.env,
        stdio: ['ignore', fd, fd],
        ...(this.spec.user ?? {}),
      });
    } finally {
      closeSync(fd); // the child holds its own copy
    }
    this.child = child;
    liveChildren.add(child);
    if (this.spec.niceness > 0 && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, this.spec.niceness);
      } catch {
        // Best effort: some systems refuse priority changes.
      }
    }
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        liveChildren.delete(child);
        if (this.child === child && !this.stopping) {
          this.unexpectedExits += 1;
          this.note(`exited on its own (code ${code}, signal ${signal})`);
          if (this.spec.supervise) {
            this.restarting = new Promise<void>((done) => setTimeout(done, 500))
              .then(() => (this.stopping ? undefined : this.start()))
              .catch((error: unknown) => this.note(`restart failed: ${(error as Error).message}`))
              .finally(() => (this.restarting = null));
          }
        }
        resolve();
      });
    });
    await this.spec.ready(this, since);
  }

  /** Kills the child with `signal` (SIGKILL by default) and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL', escalateAfterMs = 10_000): Promise<void> {
    await this.restarting;
    const child = this.child;
    if (!child || !this.alive) return;
    this.stopping = true;
    this.kills += 1;
    this.note(`kill ${signal}`);
    const escalate =
      signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), escalateAfterMs);
    child.kill(signal);
    await this.exited;
    clearTimeout(escalate);
  }

  /** Kills the child for good (no restart), counting no kill. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.restarting;
    const child = this.child;
    if (!child || !this.alive) return;
    this.note('stop');
    child.kill('SIGKILL');
    await this.exited;
  }

  /** Waits until a supervised restart in progress (after a crash) is over. */
  async settled(): Promise<void> {
    await this.restarting;
  }
}

// ------------------------------------------------------------------------------------------------ readiness

export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  child: ManagedProcess,
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!child.alive) throw new Error(`${child.name} exited before ${what}:\n${child.tail()}`);
    try {
      if (await check()) return;
    } catch {
      // Not answering yet.
    }
    if (Date.now() > deadline)
      throw new Error(`${child.name}: ${what} did not happen within ${timeoutMs} ms:\n${child.tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await response.arrayBuffer();
  return response.ok;
}

function httpsOk(url: string, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = https.get(url, { ca, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

async function postgresAnswers(port: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: embeddedUrl(port, 'postgres') });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function temporalAnswers(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: '2s' });
  try {
    await connection.workflowService.describeNamespace({ namespace: CHAOS_NAMESPACE });
    return true;
  } finally {
    await connection.close();
  }
}

/** The processes whose parent is `pid`, from /proc (empty where there is no /proc). */
function childPids(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const entry of entries) {
    try {
      // The command name is in parentheses and may hold spaces: the parent's PID is the second field after it.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last lines of every child's log in a log folder (also after the stack is gone). */
export function logTails(logDir: string, lines = 25): string {
  let files: string[] = [];
  try {
    files = readdirSync(logDir).filter((file) => file.endsWith('.log'));
  } catch {
    return `(no logs in ${logDir})`;
  }
  return files
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(logDir, file), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .join('\n');
      return `----- ${file}, last ${lines} lines\n${text}`;
    })
    .join('\n');
}

// ------------------------------------------------------------------------------------------------ the stack

export interface StackOptions {
  seed: number;
  /** Environment of every project process on top of the stack's own (RAMP_* timings, sandbox time scale...). */
  env: Record<string, string>;
  niceness: number;
  log: (line: string) => void;
  /** How the stand-in client endpoint answers each delivery (by default 204 when its signature verifies). */
  clientEndpoint?: OutcomeReceiverOptions['respond'];
}

export interface StackEndpoints {
  temporalAddress: string;
  /** The ledger's database (no password: loopback is trusted). */
  databaseUrl: string;
  sandboxUrl: string;
  receiverUrl: string;
  apiUrl: string;
}

/** Names of settings the harness sets itself: inherited values (a developer's shell, jest's own server) are dropped. */
const OWN_PREFIXES = [
  'TEMPORAL_',
  'OPERATOR_',
  'SANDBOX_',
  'RAMP_',
  'RECEIVER_',
  'API_',
  'GAS_',
  'ALERT',
  'PAYLOAD_ENCRYPTION',
  'CODEC_SERVER',
  'TEST_TEMPORAL',
  'METRICS_TOKEN',
  'RECONCILE_',
  'LOG_LEVEL',
  'DATABASE_URL',
  'CLIENT_WEBHOOK_',
];

function inheritedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !OWN_PREFIXES.some((prefix) => name.startsWith(prefix))),
  );
}

/** A killed PostgreSQL's session processes notice within moments that their server is gone, and exit. */
const SESSIONS_EXIT_WITHIN_MS = 30_000;

const secret = (bytes = 24) => randomBytes(bytes).toString('hex');

export class ChaosStack {
  readonly dir: string;
  readonly logDir: string;
  readonly endpoints: StackEndpoints;
  /** The settings every project process gets: also what the harness's own typed client is built from. */
  readonly env: Record<string, string>;
  readonly apiKey: string;
  readonly devServer: ManagedProcess;
  readonly postgres: ManagedProcess;
  readonly sandbox: ManagedProcess;
  /** A worker per version, oldest first; the last one's version is current. */
  readonly workers: Array<{ buildId: string; process: ManagedProcess }> = [];
  readonly receiver: ManagedProcess;
  readonly api: ManagedProcess;
  readonly dbFile: string;
  /** The client's backend, as far as outcome events go: every delivery it received, and what it answered. */
  readonly clientEndpoint: RunningOutcomeReceiver;
  devServerRestarts = 0;
  /** PostgreSQL stopped and started again: SIGKILLed, and shut down cleanly. */
  databaseKills = 0;
  databaseRestarts = 0;
  /** Starts a worker process of `buildId` (not yet started). */
  private readonly workerOf: (buildId: string) => ManagedProcess;

  private constructor(fields: {
    dir: string;
    endpoints: StackEndpoints;
    env: Record<string, string>;
    apiKey: string;
    processes: Record<'devServer' | 'postgres' | 'sandbox' | 'receiver' | 'api', ManagedProcess>;
    workerOf: (buildId: string) => ManagedProcess;
    dbFile: string;
    clientEndpoint: RunningOutcomeReceiver;
  }) {
    this.dir = fields.dir;
    this.logDir = path.join(fields.dir, 'logs');
    this.endpoints = fields.endpoints;
    this.env = fields.env;
    this.apiKey = fields.apiKey;
    this.devServer = fields.processes.devServer;
    this.postgres = fields.processes.postgres;
    this.sandbox = fields.processes.sandbox;
    this.workerOf = fields.workerOf;
    this.receiver = fields.processes.receiver;
    this.api = fields.processes.api;
    this.dbFile = fields.dbFile;
    this.clientEndpoint = fields.clientEndpoint;
  }

  /** The worker of the current version: where new workflows go. */
  get worker(): ManagedProcess {
    return this.workers[this.workers.length - 1]!.process;
  }

  get processes(): ManagedProcess[] {
    return [
      this.devServer,
      this.postgres,
      this.sandbox,
      ...this.workers.map(({ process }) => process),
      this.receiver,
      this.api,
    ];
  }

  /** Provisions the CLI with the project's own script, picks free loopback ports, writes the TLS pair, starts all. */
  static async start(options: StackOptions): Promise<ChaosStack> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ramp-chaos-'));
    const logDir = path.join(dir, 'logs');
    mkdirSync(logDir, { recursive: true });
    const cli = await ensureTemporalCli({ log: options.log, env: process.env });
    const host = '127.0.0.1';
    const [temporalPort, sandboxPort, receiverPort, apiPort, postgresPort] = [
      await freePort(host),
      await freePort(host),
      await freePort(host),
      await freePort(host),
      await freePort(host),
    ];
    const temporalAddress = `${host}:${temporalPort}`;

    // The receiver's certificate: our own pair, so that no process writes into the project's .data folder and the
    // readiness probe can trust exactly this certificate.
    const certificate = await generateLocalCertificate(2);
    const tlsDir = path.join(dir, 'receiver-tls');
    mkdirSync(tlsDir, { recursive: true });
    const certFile = path.join(tlsDir, 'tls.crt');
    const keyFile = path.join(tlsDir, 'tls.key');
    writeFileSync(certFile, certificate.cert, { mode: 0o600 });
    writeFileSync(keyFile, certificate.key, { mode: 0o600 });

    const clientEndpoint = await startOutcomeReceiver(
      options.clientEndpoint ? { respond: options.clientEndpoint } : {},
    );

    const email = 'chaos@example.com';
    const passcode = secret(12);
    const apiKey = secret(16);
    const endpoints: StackEndpoints = {
      temporalAddress,
      databaseUrl: embeddedUrl(postgresPort),
      sandboxUrl: `http://${host}:${sandboxPort}`,
      receiverUrl: `https://${host}:${receiverPort}`,
      apiUrl: `http://${host}:${apiPort}`,
    };
    const env: Record<string, string> = {
      LOG_LEVEL: 'info',
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: CHAOS_NAMESPACE,
      TEMPORAL_TASK_QUEUE: CHAOS_TASK_QUEUE,
      DATABASE_URL: endpoints.databaseUrl,
      OPERATOR_BASE_URL: endpoints.sandboxUrl,
      OPERATOR_EMAIL: email,
      OPERATOR_PASSCODE: passcode,
      SANDBOX_HOST: host,
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_EMAIL: email,
      SANDBOX_PASSCODE: passcode,
      SANDBOX_SEED: String(options.seed >>> 0),
      SANDBOX_LOG_LEVEL: 'warn',
      // The receiver is ours, with a self-signed certificate (as under npm start and the integration tests).
      RECEIVER_HOST: host,
      RECEIVER_PORT: String(receiverPort),
      RECEIVER_PUBLIC_URL: endpoints.receiverUrl,
      RECEIVER_TRANSACTION_SECRET: secret(),
      RECEIVER_ORDER_SECRET: secret(),
      RECEIVER_TLS: tlsDir,
      API_HOST: host,
      API_PORT: String(apiPort),
      API_KEY: apiKey,
      CLIENT_WEBHOOK_URLS: clientEndpoint.url,
      CLIENT_WEBHOOK_SECRET: clientEndpoint.secret,
      ...options.env,
    };
    const childEnv = { ...inheritedEnv(), ...env };
    const tsEntry = (file: string) =>
      [process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, file)]] as const;
    const logFile = (name: string) => {
      const file = path.join(logDir, `${name}.log`);
      writeFileSync(file, '');
      return file;
    };
    const dbFile = path.join(dir, 'temporal.sqlite');

    const devServer = new ManagedProcess({
      name: 'dev-server',
      command: cli.path,
      // As src/temporal/dev-server.ts starts it (namespace, search attributes, warn logs), headless, on a data file.
      args: [
        'server',
        'start-dev',
        '--ip',
        host,
        '--port',
        String(temporalPort),
        '--namespace',
        CHAOS_NAMESPACE,
        '--log-level',
        'warn',
        ...devServerSearchAttributeArgs(),
        '--headless',
        '--db-filename',
        dbFile,
        // npm start's tuning: the harness SIGKILLs this server, which its pragmas must survive.
        ...devServerTuningArgs(DEV_SERVER_TUNING),
      ],
      env: inheritedEnv(),
      logFile: logFile('dev-server'),
      ready: (child) => waitUntil('the frontend to answer', () => temporalAnswers(temporalAddress), child),
      // A dev server that dies on its own is a finding of the run, not something to paper over.
      supervise: false,
      niceness: options.niceness,
    });
    // The ledger's PostgreSQL, as npm start runs it (the embedded server), on a data folder that outlives its kills.
    const postgresData = path.join(dir, 'postgres');
    await initialiseDataDir(postgresData);
    const postgresRun = postgresCommand(postgresData, postgresPort);
    const postgres = new ManagedProcess({
      name: 'postgres',
      command: postgresRun.command,
      args: postgresRun.args,
      user: postgresRun.user,
      env: { ...inheritedEnv(), LC_ALL: 'C' },
      logFile: logFile('postgres'),
      ready: (child) => waitUntil('PostgreSQL to answer', () => postgresAnswers(postgresPort), child),
      // Its death is one of the run's faults when the scenario kills it; dying on its own is a finding.
      supervise: false,
      niceness: options.niceness,
    });
    const node = (
      name: string,
      file: string,
      ready: ProcessSpec['ready'],
      supervise = true,
      flags: string[] = [],
    ) => {
      const [command, args] = tsEntry(file);
      return new ManagedProcess({
        name,
        command,
        args: [...args, ...flags],
        env: childEnv,
        logFile: logFile(name),
        ready,
        supervise,
        niceness: options.niceness,
      });
    };
    // The sandbox keeps its state in memory: a crash would take the operator's records with it, so it is reported,
    // not restarted.
    const sandbox = node(
      'sandbox',
      'src/entry/sandbox.ts',
      (child) =>
        waitUntil('the sandbox to answer', () => httpOk(`${endpoints.sandboxUrl}/sandbox/v1`), child),
      false,
    );
    const workerOf = (buildId: string) =>
      node(
        `worker-${buildId}`,
        'src/entry/worker.ts',
        (child, since) =>
          waitUntil(
            '"Worker started"',
            () => Promise.resolve(child.logText(since).includes('"msg":"Worker started"')),
            child,
          ),
        true,
        ['--build-id', buildId],
      );
    const receiver = node('receiver', 'src/entry/receiver.ts', (child) =>
      waitUntil(
        'the receiver to answer',
        () => httpsOk(`${endpoints.receiverUrl}/healthz`, certificate.cert),
        child,
      ),
    );
    const api = node('api', 'src/entry/api.ts', (child) =>
      waitUntil('the API to answer', () => httpOk(`${endpoints.apiUrl}/healthz`), child),
    );

    const stack = new ChaosStack({
      dir,
      endpoints,
      env,
      apiKey,
      processes: { devServer, postgres, sandbox, receiver, api },
      workerOf,
      dbFile,
      clientEndpoint,
    });
    try {
      await devServer.start();
      await postgres.start();
      await ensureDatabase(embeddedUrl(postgresPort, 'postgres'), EMBEDDED_DATABASE);
      const migrator = openDatabase(endpoints.databaseUrl, { applicationName: 'chaos setup', poolSize: 1 });
      await migrateToLatest(migrator.db).finally(() => migrator.close());
      // The worker's start is mostly bundling the workflows; the others start one after the other meanwhile.
      await Promise.all([
        stack.startWorkerVersion(packageVersion()),
        (async () => {
          await sandbox.start();
          await receiver.start();
          await api.start();
        })(),
      ]);
      await stack.release(packageVersion());
    } catch (error) {
      await stack.stopAll();
      throw error;
    }
    return stack;
  }

  /** Starts a worker of another version beside the running ones; it gets work once a release makes it current. */
  async startWorkerVersion(buildId: string): Promise<void> {
    const process = this.workerOf(buildId);
    this.workers.push({ buildId, process });
    await process.start();
  }

  /**
   * `npm run release -- --make-current <buildId>` in a process of its own: new workflows go to that version at once,
   * and the long-lived runs elsewhere move to it (the command waits at most `waitMs` for each).
   */
  async release(buildId: string, waitMs = 60_000): Promise<void> {
    const [command, args] = [
      process.execPath,
      ['--import', 'tsx', path.join(PROJECT_ROOT, 'src/entry/release.ts')],
    ];
    const logFile = path.join(this.logDir, 'release.log');
    writeFileSync(logFile, `=== [chaos harness] ${new Date().toISOString()} release ${buildId}\n`, {
      flag: 'a',
    });
    const fd = openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(command, [...args, '--make-current', buildId, '--wait', `${waitMs}ms`], {
        cwd: PROJECT_ROOT,
        env: { ...inheritedEnv(), ...this.env },
        stdio: ['ignore', fd, fd],
      });
    } finally {
      closeSync(fd);
    }
    liveChildren.add(child);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    liveChildren.delete(child);
    if (code !== 0)
      throw new Error(`the release of ${buildId} exited with ${code}:\n${readFileSync(logFile, 'utf8')}`);
  }

  /** Stops the dev server (SIGTERM or SIGKILL); `devServer.start()` brings it back on the same port and file. */
  async stopDevServer(signal: NodeJS.Signals): Promise<void> {
    await this.devServer.kill(signal);
    this.devServerRestarts += 1;
  }

  /**
   * Stops the ledger's PostgreSQL and starts it again on the same data folder and port `downtimeMs` later. SIGKILL is
   * a crash (it recovers from its log at the next start); SIGINT is its fast shutdown, which ends every session and
   * checkpoints (SIGTERM would be its smart shutdown, which waits for every pooled session to leave: forever).
   * The next server starts only once the old one's session processes are gone: after a SIGKILL they outlive it for
   * a moment, and a server started while they hold its shared memory refuses to run.
   */
  async restartDatabase(signal: 'SIGKILL' | 'SIGINT', downtimeMs: number): Promise<void> {
    const pid = this.postgres.pid;
    const sessions = pid === undefined ? [] : childPids(pid);
    await this.postgres.kill(signal);
    const stoppedAt = Date.now();
    if (signal === 'SIGKILL') this.databaseKills += 1;
    else this.databaseRestarts += 1;
    while (sessions.some(running)) {
      if (Date.now() > stoppedAt + SESSIONS_EXIT_WITHIN_MS)
        throw new Error(`the old PostgreSQL's processes ${sessions.filter(running).join(', ')} did not exit`);
      await delay(100);
    }
    await delay(Math.max(0, stoppedAt + downtimeMs - Date.now()));
    await this.postgres.start();
  }

  /** Waits for supervised restarts in progress, then checks that every process is up. */
  async allUp(): Promise<string[]> {
    await Promise.all(this.processes.map((child) => child.settled()));
    return this.processes.filter((child) => !child.alive).map((child) => child.name);
  }

  async stopAll(): Promise<void> {
    // Clients first, the server last, so nothing logs a burst of reconnection errors into the tails.
    for (const child of [
      this.api,
      this.receiver,
      ...this.workers.map(({ process }) => process),
      this.sandbox,
      this.postgres,
      this.devServer,
    ])
      await child.stop();
    await this.clientEndpoint.close();
  }

  /** Removes the temporary folder (logs, data file, TLS pair); only once every child is stopped. */
  removeFiles(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  tails(lines = 25): string {
    return this.processes
      .map(
        (child) => `----- ${child.name} (${child.spec.logFile}), last ${lines} lines\n${child.tail(lines)}`,
      )
      .join('\n');
  }
}
