/**
 * One real PostgreSQL server for a test project's run (the embedded one npm start runs), with a template database
 * migrated to the newest schema: each test takes a fresh database copied from it (test/helpers/database.ts), so
 * tests never see each other's rows. No silent skip: a server that cannot start fails the run with the reason.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/database/connection';
import { ensureDatabase, startEmbeddedPostgres } from '../../src/database/embedded-server';
import { migrateToLatest } from '../../src/database/migrate';

export const TEMPLATE_DATABASE = 'ramp_template';

/** Starts the run's server once: both test projects' global setups call this in jest's one process. */
export async function startTestDatabase(log: (line: string) => void): Promise<void> {
  if (process.env.TEST_DATABASE_ADMIN_URL) return;
  const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'ramp-test-postgres-')), 'data');
  const server = await startEmbeddedPostgres({ dataDir, log });
  (globalThis as { __testPostgres?: typeof server }).__testPostgres = server;
  await ensureDatabase(server.urlOf('postgres'), TEMPLATE_DATABASE);
  const template = openDatabase(server.urlOf(TEMPLATE_DATABASE), {
    applicationName: 'test-setup',
    poolSize: 1,
  });
  try {
    await migrateToLatest(template.db);
  } finally {
    // A template must have no connection open when a database is copied from it.
    await template.close();
  }
  process.env.TEST_DATABASE_ADMIN_URL = server.urlOf('postgres');
  process.env.TEST_DATABASE_TEMPLATE = TEMPLATE_DATABASE;
  process.env.TEST_DATABASE_DATA_DIR = dataDir;
  log(`[test] PostgreSQL ${server.url} is up for this run`);
}

export async function stopTestDatabase(): Promise<void> {
  const holder = globalThis as { __testPostgres?: { stop(): Promise<void> } };
  await holder.__testPostgres?.stop();
  delete holder.__testPostgres;
}

export default async function globalSetup(): Promise<void> {
  await startTestDatabase((line) => process.stdout.write(`${line}\n`));
}
