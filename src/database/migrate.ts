/**
 * Brings a database to the newest schema (`npm run db:migrate`, the deployment's migration job, npm start's embedded
 * server, the tests' template database), and tells a process at start whether its database is current: a process
 * never creates or changes tables itself, so two releases never race to migrate.
 */
// Migrations run on any schema: the tables they make are what they are about.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { MIGRATIONS } from './migrations';
import { errorMessage } from '../domain/errors';

function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) } });
}

/**
 * Runs every pending migration (Kysely holds a lock, so concurrent runs wait for each other); names those run. A
 * database a newer release already migrated has nothing pending for an older one, whose run changes nothing: the
 * older version's workers keep running on it while they drain, and a rollback reruns its migration job.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  if ((await pendingMigrations(db)).length === 0) return [];
  const result: MigrationResultSet = await migrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((step) => step.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? '(unknown)'} failed: ${errorMessage(result.error)}`);
  }
  return (result.results ?? []).filter((step) => step.status === 'Success').map((step) => step.migrationName);
}

/** The migrations this release knows that the database has not run (empty when it is current). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrations = await migrator(db).getMigrations();
  return migrations
    .filter((migration) => migration.executedAt === undefined)
    .map((migration) => migration.name);
}

/** Refuses to go on with a database this release would have to migrate first. */
export async function assertMigrated(db: Kysely<any>): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending.length > 0)
    throw new Error(
      `The database is not migrated (pending: ${pending.join(', ')}): run npm run db:migrate (or the deployment's migration job) first.`,
    );
}
