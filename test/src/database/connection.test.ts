/**
 * The pool against a server that ends a session under it (a restart, a failover, an administrator): the work on that
 * session fails as "database unavailable", which callers retry or answer 503 for, and the process carries on.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from '../../../src/database/errors';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';

let database: TestDatabase;
let admin: pg.Client;

beforeAll(async () => {
  database = await freshTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await database.close();
});

async function sessionGone(pid: number): Promise<void> {
  for (;;) {
    const { rowCount } = await admin.query('select 1 from pg_stat_activity where pid = $1', [pid]);
    if (rowCount === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a session ended while a transaction holds it fails that transaction as unavailable; the pool serves on', async () => {
  const failure = await database.db
    .transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      const pid = rows[0]!.pid;
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await sessionGone(pid);
      // The client has heard its session end by now: the next statement on it fails.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sql`select 1`.execute(trx);
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(failure).toBeDefined();
  expect(isDatabaseUnavailable(failure)).toBe(true);
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
  expect(rows).toEqual([{ one: 1 }]);
});
