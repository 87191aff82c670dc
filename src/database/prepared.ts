/**
 * The statements every deposit wallet, ramp write and outcome delivery runs, as fixed text: no query builder runs for
 * them, and each connection has the server parse and plan each once (a named prepared statement) instead of on
 * every call. Their number is fixed by this code, so what a connection keeps prepared is bounded.
 */
import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type pg from 'pg';
import type { LedgerSchema } from './schema';

/** A statement's text by the name its connections prepare it under. */
const namesByText = new Map<string, string>();

export interface PreparedStatement<Row> {
  readonly name: string;
  readonly text: string;
  /** Only for the type: what a row of its result holds. */
  readonly row?: Row;
}

/** Declares a hot-path statement (at module load): its `$n` parameters are given on each run. */
export function preparedStatement<Row = never>(name: string, text: string): PreparedStatement<Row> {
  const known = namesByText.get(text);
  if (known !== undefined && known !== name) throw new Error(`Statement ${name} repeats ${known}`);
  namesByText.set(text, name);
  return { name, text };
}

/** Runs a declared statement on the ledger (or a transaction of it). */
export function runPrepared<Row>(
  db: Pick<Kysely<LedgerSchema>, 'executeQuery'>,
  statement: PreparedStatement<Row>,
  values: readonly unknown[],
): Promise<QueryResult<Row>> {
  return db.executeQuery<Row>(CompiledQuery.raw(statement.text, [...values]));
}

/** Makes a pool's connection run the declared statements by name: the server then parses and plans each once. */
export function nameDeclaredStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === 'string' && args.length === 2 ? namesByText.get(text) : undefined;
    return name === undefined ? query(...args) : query({ name, text, values });
  }) as typeof client.query;
}
