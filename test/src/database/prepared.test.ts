/**
 * Declared statements run by name: each connection of the pool has the server prepare one once and then only binds
 * its values; any other statement runs as before.
 */
import { sql } from 'kysely';
import { preparedStatement, runPrepared } from '../../../src/database/prepared';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await freshTestDatabase();
});

afterAll(async () => {
  await database.close();
});

const DOUBLED = preparedStatement<{ doubled: number; prepared: string[] }>(
  'test_doubled',
  `select $1::int * 2 as doubled, array(select name from pg_prepared_statements order by name) as prepared`,
);

test('a declared statement is prepared under its name on the connection that runs it, once', async () => {
  // One connection at a time: a transaction holds one.
  const answers = await database.db
    .transaction()
    .execute(async (trx) => [
      (await runPrepared(trx, DOUBLED, [21])).rows[0],
      (await runPrepared(trx, DOUBLED, [5])).rows[0],
      (await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(trx))
        .rows[0],
    ]);
  expect(answers).toEqual([
    { doubled: 42, prepared: ['test_doubled'] },
    { doubled: 10, prepared: ['test_doubled'] },
    { count: 1 },
  ]);
});

test('a text declared under two names is refused at declaration', () => {
  expect(() => preparedStatement('test_doubled_again', DOUBLED.text)).toThrow(/repeats test_doubled/);
});
