/**
 * The migrations as the deployment runs them (`npm run db:migrate`, its job in compose and Kubernetes): a new database
 * gets every migration once, a second run changes nothing, and an older release's run on a database a newer release
 * migrated finds nothing to do and leaves it as it is (its workers keep running on it while they drain).
 */
import { sql } from 'kysely';
import { openDatabase } from '../../../src/database/connection';
import { ensureDatabase } from '../../../src/database/embedded-server';
import { assertMigrated, migrateToLatest, pendingMigrations } from '../../../src/database/migrate';
import { MIGRATIONS } from '../../../src/database/migrations';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';

const ALL = Object.keys(MIGRATIONS).sort();

describe('migrations', () => {
  test('an empty database gets every migration once; the next run finds none pending', async () => {
    const adminUrl = process.env.TEST_DATABASE_ADMIN_URL!;
    const name = `m_${Date.now().toString(36)}`;
    await ensureDatabase(adminUrl, name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = openDatabase(url.toString(), { applicationName: 'migrate test', poolSize: 1 });
    try {
      expect(await pendingMigrations(database.db)).toEqual(ALL);
      await expect(assertMigrated(database.db)).rejects.toThrow(/not migrated \(pending: 0001-ledger/);
      expect(await migrateToLatest(database.db)).toEqual(ALL);
      expect(await migrateToLatest(database.db)).toEqual([]);
      expect(await pendingMigrations(database.db)).toEqual([]);
      await expect(assertMigrated(database.db)).resolves.toBeUndefined();
    } finally {
      await database.close();
    }
  });

  describe('a database a newer release migrated', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await freshTestDatabase();
      // What a newer release's job leaves: a migration this release does not know, run after its own.
      await sql`insert into kysely_migration (name, timestamp) values ('9999-a-newer-release', ${new Date().toISOString()})`.execute(
        database.db,
      );
    });
    afterAll(async () => {
      await database.close();
    });

    test("this release's run has nothing to do and changes nothing; its processes start on it", async () => {
      expect(await migrateToLatest(database.db)).toEqual([]);
      expect(await pendingMigrations(database.db)).toEqual([]);
      await expect(assertMigrated(database.db)).resolves.toBeUndefined();
      const recorded = await sql<{
        name: string;
      }>`select name from kysely_migration order by name`.execute(database.db);
      expect(recorded.rows.map((row) => row.name)).toEqual([...ALL, '9999-a-newer-release']);
    });
  });
});
