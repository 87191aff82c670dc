/**
 * The incident store: one row per incident, open until it is resolved. At most one open incident per key (the unique
 * index decides which raise opened it); the API lists open ones and resolved ones newest first, a page at a time.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table incidents (
      id bigint generated always as identity primary key,
      key text not null,
      kind text not null,
      network text,
      deposit_transaction_id text,
      message text not null,
      workflow_id text not null,
      last_workflow_id text not null,
      details jsonb not null,
      first_seen timestamptz not null,
      last_seen timestamptz not null,
      occurrences integer not null,
      opened_by text not null,
      acknowledged jsonb,
      resolved_at timestamptz,
      resolution text,
      resolved_by text
    );
    create unique index incidents_open_key on incidents (key) where resolved_at is null;
    create index incidents_open_newest on incidents (first_seen desc, id desc) where resolved_at is null;
    create index incidents_open_by_kind on incidents (kind, first_seen desc, id desc) where resolved_at is null;
    create index incidents_resolved_newest on incidents (resolved_at desc, id desc) where resolved_at is not null;
    create index incidents_of_key on incidents (key, resolved_at desc);
  `.execute(db);
}
