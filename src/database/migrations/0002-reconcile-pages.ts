/**
 * Reconciliation in pages: open ramps listed oldest first with the operator resources each holds (so a ramp the
 * operator agrees with is checked without asking its process), end users' wallets listed most recently active first
 * with when each was last reconciled, and each run's progress and findings.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ramps add column resources jsonb;
    create index ramps_open_oldest on ramps (started_at, workflow_id) where ended_at is null;

    alter table end_users add column active_at timestamptz, add column wallet_checked_at timestamptz;
    update end_users set active_at = updated_at;
    alter table end_users alter column active_at set not null, alter column active_at set default now();
    create index end_users_wallets_by_activity on end_users (active_at desc, end_user_id) where wallet_id is not null;

    create table reconcile_runs (
      run_id text primary key,
      started_at timestamptz not null,
      budget integer not null,
      operator_calls integer not null default 0,
      progress jsonb not null,
      updated_at timestamptz not null,
      finished_at timestamptz
    );
    create index reconcile_runs_newest on reconcile_runs (started_at desc);

    create table reconcile_findings (
      run_id text not null references reconcile_runs on delete cascade,
      kind text not null,
      subject text not null,
      finding jsonb not null,
      found_at timestamptz not null default now(),
      primary key (run_id, kind, subject)
    );
  `.execute(db);
}
