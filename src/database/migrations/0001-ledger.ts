/**
 * The ledger's first tables: ramps' views and booked rows, end users, outcome events with their delivery attempts,
 * and idempotency keys. Newest-first lists page on (time, ID) keys, so each list has an index in that order.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The migrator runs a migration in one transaction: the steps land together or not at all, as one statement did.
  await createRampsAndBookings(db);
  await createEndUsers(db);
  await createOutcomeEvents(db);
  await createIdempotencyKeys(db);
}

/** Ramps' views, listed newest first, by end user, by status and open; each closed ramp's booked row. */
async function createRampsAndBookings(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ramps (
      workflow_id text primary key,
      direction text not null check (direction in ('on-ramp', 'off-ramp')),
      end_user_id text,
      status text not null,
      revision integer not null,
      view jsonb not null,
      started_at timestamptz not null,
      updated_at timestamptz not null,
      ended_at timestamptz
    );
    create index ramps_newest on ramps (started_at desc, workflow_id desc);
    create index ramps_of_end_user on ramps (end_user_id, started_at desc, workflow_id desc);
    create index ramps_by_status on ramps (direction, status);
    create index ramps_open on ramps (updated_at) where ended_at is null;

    create table bookings (
      workflow_id text primary key,
      direction text not null,
      status text not null,
      closed_at timestamptz not null,
      row jsonb not null,
      resources jsonb not null,
      reconciled text not null default 'unchecked',
      reconciliation text not null default '',
      checked_at timestamptz
    );
    create index bookings_in_period on bookings (closed_at, workflow_id);
    create index bookings_unchecked on bookings (closed_at) where checked_at is null;
  `.execute(db);
}

/** End users, each with the process that holds it and its deposit wallet. */
async function createEndUsers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table end_users (
      end_user_id text primary key,
      workflow_id text not null unique,
      wallet_id text unique,
      revision integer not null default 0,
      view jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
  `.execute(db);
}

/** Outcome events with their redelivery jobs, delivery attempts and the health of the endpoints they go to. */
async function createOutcomeEvents(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table outcome_events (
      webhook_id text primary key,
      process_id text not null,
      sequence integer not null,
      type text not null,
      end_user_id text,
      occurred_at timestamptz not null,
      body json not null,
      delivery text not null check (delivery in ('pending', 'delivered', 'failed', 'no-endpoint')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      leased_until timestamptz,
      give_up_at timestamptz,
      retry_for_ms bigint not null,
      last_attempt_at timestamptz,
      delivered_at timestamptz,
      error text,
      confirmed_endpoints text[] not null default '{}',
      redelivery_job uuid,
      trace_parent text,
      recorded_at timestamptz not null default now(),
      unique (process_id, sequence)
    );
    create index outcome_events_newest on outcome_events (occurred_at desc, webhook_id desc);
    create index outcome_events_by_type on outcome_events (type, occurred_at desc, webhook_id desc);
    create index outcome_events_by_delivery on outcome_events (delivery, occurred_at desc, webhook_id desc);
    create index outcome_events_of_end_user on outcome_events (end_user_id, occurred_at desc, webhook_id desc);
    create index outcome_events_due on outcome_events (next_attempt_at) where delivery = 'pending';

    create index outcome_events_of_job on outcome_events (redelivery_job) where redelivery_job is not null;

    create table redelivery_jobs (
      job_id uuid primary key,
      filter jsonb not null,
      matched integer not null,
      started_at timestamptz not null
    );

    create table delivery_attempts (
      webhook_id text not null references outcome_events on delete cascade,
      attempt integer not null,
      started_at timestamptz not null,
      ended_at timestamptz,
      outcome text,
      error text,
      primary key (webhook_id, attempt)
    );

    create table endpoint_health (
      label text primary key,
      failing_since timestamptz,
      incident_open boolean not null default false
    );
  `.execute(db);
}

/** Idempotency keys: each request's claim and answer, until it expires. */
async function createIdempotencyKeys(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      route text not null,
      key_digest text not null,
      fingerprint text not null,
      claim_id text not null,
      claimed_until timestamptz not null,
      answer_status integer,
      answer_body jsonb,
      expires_at timestamptz not null,
      primary key (route, key_digest)
    );
    create index idempotency_keys_expiry on idempotency_keys (expires_at);
  `.execute(db);
}
