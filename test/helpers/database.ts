/**
 * A fresh database for one test (or one test file), copied from the run's migrated template on the run's PostgreSQL
 * (test/setup/database-global-setup.ts): tests never see each other's rows, and a copy takes a few milliseconds.
 */
import { randomBytes } from 'node:crypto';
import { type Database, type Ledger, openDatabase } from '../../src/database/connection';
import type { WebhookEvent } from '../../src/domain/outcome-events';
import { ensureDatabase } from '../../src/database/embedded-server';

export interface TestDatabase extends Database {
  url: string;
  name: string;
}

function runServer(): { adminUrl: string; template: string } {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL;
  const template = process.env.TEST_DATABASE_TEMPLATE;
  if (!adminUrl || !template)
    throw new Error(
      'The test PostgreSQL is not set up: run these tests through jest (its global setup starts it).',
    );
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

/** One outcome event of a process as the ledger holds it, in the process's order. */
export interface RecordedEvent {
  webhookId: string;
  event: WebhookEvent;
  delivery: string;
  attempts: number;
}

/** The outcome events a process raised, in its order, with how their delivery stands. */
export async function eventsOf(db: Ledger, processId: string): Promise<RecordedEvent[]> {
  const rows = await db
    .selectFrom('outcome_events')
    .select(['webhook_id', 'body', 'delivery', 'attempts'])
    .where('process_id', '=', processId)
    .orderBy('sequence')
    .execute();
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    event: row.body as WebhookEvent,
    delivery: row.delivery,
    attempts: row.attempts,
  }));
}
