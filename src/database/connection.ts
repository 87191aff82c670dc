/**
 * The one way a process reaches the product's database: a bounded pg pool under Kysely's typed queries. Every
 * process opens one at start (the worker for its activities and the outcome dispatcher, the API for its reads and
 * idempotency keys, the typed client for its reads) and closes it at stop.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { nameDeclaredStatements } from './prepared';
import type { LedgerSchema } from './schema';

/**
 * Connections per process. Ten kept the API's reads, a worker's activity slots and the dispatcher busy without
 * queueing in the bench; a deployment sizes the server for (processes x 10), see docs/deployment.md.
 */
export const POOL_SIZE = 10;
/** A pool that cannot hand out a connection within this fails the call (the caller retries or answers 503). */
const CONNECT_TIMEOUT_MS = 5_000;
/** No statement of ours runs longer than a page read; one that does is stuck behind a lock or a sick server. */
const STATEMENT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 30_000;

// Timestamps read as ISO 8601 strings (what every view and event publishes), bigints as decimal strings.
const TIMESTAMPTZ_OID = 1184;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ_OID
      ? (value: string) => new Date(value).toISOString()
      : (pg.types.getTypeParser(oid, format) as (
          value: string,
        ) => unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

export type Ledger = Kysely<LedgerSchema>;

export interface Database {
  db: Ledger;
  /** The pool under it (LISTEN connections, health checks). */
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Shown in pg_stat_activity: which process holds a connection. */
  applicationName: string;
  poolSize?: number;
}

export function openDatabase(url: string, options: OpenDatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: options.applicationName,
    types,
  });
  // An idle connection the server dropped (a restart) is an error event on the pool, not a crash of the process.
  pool.on('error', () => undefined);
  // So is a connection the server ends while it is checked out (a restart mid-transaction): its client emits 'error',
  // which without a listener would end the process. Its statement fails on its own, and the pool drops it.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    nameDeclaredStatements(client);
  });
  const db = new Kysely<LedgerSchema>({ dialect: new PostgresDialect({ pool }) });
  let closing: Promise<void> | undefined;
  return {
    db,
    pool,
    close: () => (closing ??= db.destroy()),
  };
}
