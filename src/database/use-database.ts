/**
 * How a process gets its database: `openMigrated` for the stand-alone processes (DATABASE_URL; they refuse a
 * database that is not migrated, since migrating is the deployment's migration job's), and `useDatabase` for
 * npm start, which runs the embedded server itself when DATABASE_URL is unset and migrates it.
 */
import path from 'node:path';
import type { DatabaseConfig } from '../config/database';
import { type Database, openDatabase } from './connection';
import { startEmbeddedPostgres } from './embedded-server';
import { assertMigrated, migrateToLatest } from './migrate';

/** Opens the configured database and checks that it has every migration this release knows. */
export async function openMigrated(url: string, applicationName: string): Promise<Database> {
  const database = openDatabase(url, { applicationName });
  try {
    await assertMigrated(database.db);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

export interface UsedDatabase {
  database: Database;
  /** Where it is: the embedded server's URL (no password), or "DATABASE_URL". */
  where: string;
  /** Stops what was started (the pool, and the embedded server). */
  stop(): Promise<void>;
}

/** npm start: DATABASE_URL when set (migrated here), else an embedded PostgreSQL with its data under `dataDir`. */
export async function useDatabase(
  config: DatabaseConfig,
  dataDir: string,
  log: (line: string) => void,
): Promise<UsedDatabase> {
  const embedded = config.url
    ? undefined
    : await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: EMBEDDED_PORT, log });
  const url = config.url?.reveal() ?? embedded!.url;
  const database = openDatabase(url, { applicationName: 'ramp-orchestrator' });
  try {
    const ran = await migrateToLatest(database.db);
    if (ran.length > 0) log(`[postgres] migrated: ${ran.join(', ')}`);
  } catch (error) {
    await database.close();
    await embedded?.stop();
    throw error;
  }
  return {
    database,
    where: embedded ? embedded.url : 'DATABASE_URL',
    async stop() {
      await database.close();
      await embedded?.stop();
    },
  };
}

/** npm start's embedded PostgreSQL: a fixed port, so psql finds it run after run (5432 may be a system server's). */
export const EMBEDDED_PORT = 5433;
