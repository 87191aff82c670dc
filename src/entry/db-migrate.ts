/**
 * `npm run db:migrate`: brings DATABASE_URL's database to this release's schema, then exits. The deployment runs
 * it (a Kubernetes Job, a compose service) before the new processes start; they refuse a database it has not
 * migrated. Safe to run again and concurrently: a run that finds nothing pending changes nothing.
 */
import { loadDatabaseConfig, requiredDatabaseUrl } from '../config/database';
import { openDatabase } from '../database/connection';
import { migrateToLatest, pendingMigrations } from '../database/migrate';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';

const COMMAND = defineCommand({
  usage: 'npm run db:migrate --',
  summary:
    "Runs every migration DATABASE_URL's database has not run yet (or, with --check, lists them and exits 2 when any is pending).",
  flags: {
    check: { type: 'boolean', description: 'only list the pending migrations; exit 2 when there are any' },
  },
  notes: ['Reads DATABASE_URL (or DATABASE_URL_FILE).'],
});

async function main(): Promise<number> {
  const check = commandFlags(COMMAND).check === true;
  const url = requiredDatabaseUrl(loadDatabaseConfig(process.env), 'migration');
  const database = openDatabase(url.reveal(), {
    applicationName: 'ramp-orchestrator db:migrate',
    poolSize: 1,
  });
  try {
    if (check) {
      const pending = await pendingMigrations(database.db);
      process.stdout.write(pending.length > 0 ? `pending: ${pending.join(', ')}\n` : 'up to date\n');
      return pending.length > 0 ? 2 : 0;
    }
    const ran = await migrateToLatest(database.db);
    process.stdout.write(ran.length > 0 ? `migrated: ${ran.join(', ')}\n` : 'up to date\n');
    return 0;
  } finally {
    await database.close();
  }
}

runMain(main, { failurePrefix: 'db:migrate failed: ' });
