/**
 * A fresh database for one test (or one test file), copied from the run's migrated template on the run's PostgreSQL
 * (test/setup/database-global-setup.ts): tests never see each other's rows, and a copy takes a few milliseconds.
 */
import { randomBytes } from 'node:crypto';
import { type Database, openDatabase } from '../../src/database/connection';
import { ensureDatabase } from '../../src/database/embedded-server';

export interface TestDatabase extends Database {
  url: string;
  name: string;
}

function runServer(): { adminUrl: string; template: string } {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL;
  const template = process.env.TEST_DATABASE_TEMPLATE;
  if (!adminUrl || !template)
    throw new Error('The test PostgreSQL is not set up: run these tests through jest (its global setup starts it).');
  return { adminUrl, template };
}

/** A new database with the newest schema and no rows, and a pool on it (close it in afterAll). */
export async function freshTestDatabase(): Promise<TestDatabase> {
  const { adminUrl, template } = runServer();
  const name = `t_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(adminUrl, name, template);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = openDatabase(url.toString(), { applicationName: `test ${name}` });
  return { ...database, url: url.toString(), name };
}
