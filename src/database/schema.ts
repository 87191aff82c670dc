/**
 * The tables of the product's database as Kysely sees them: one interface per table, its columns as they are read
 * (timestamps as ISO strings, jsonb parsed) and as they are written (jsonb as its JSON text). The tables themselves
 * are made by the migrations beside this file; the two must agree, which the migration test checks.
 */
import type { ColumnType, Generated } from 'kysely';

/** A jsonb column: read parsed, written as JSON text (pg would turn a JS array into a PostgreSQL array). */
export type Json<T> = ColumnType<T, string, string>;
/* A json (not jsonb) column keeps the text as written: an outcome event's body is sent with its keys as raised. */
/** A timestamptz column: read as an ISO 8601 string, written as one (or as `now()` through sql). */
export type Timestamp = ColumnType<string, string, string>;
export type NullableTimestamp = ColumnType<string | null, string | null | undefined, string | null>;

/** One ramp's public view: written by the ramp's own activity at each status change. */
export interface RampsTable {
  workflow_id: string;
  direction: 'on-ramp' | 'off-ramp';
  end_user_id: string | null;
  status: string;
  /** The process's own count of its writes: a write never replaces a newer one. */
  revision: number;
  view: Json<unknown>;
  /** The operator resources the ramp holds and their statuses (reconciliation compares them with the operator's). */
  resources: ColumnType<unknown, string | null | undefined, string | null>;
  started_at: Timestamp;
  updated_at: Timestamp;
  ended_at: NullableTimestamp;
}

/** The booked row of a ramp that ended: what the statement lists, and what reconciliation checked of it. */
export interface BookingsTable {
  workflow_id: string;
  direction: 'on-ramp' | 'off-ramp';
  status: string;
  closed_at: Timestamp;
  row: Json<unknown>;
  /** The operator resources the ramp booked, as it booked them (what reconciliation reads again). */
  resources: Json<unknown>;
  /** unchecked until reconciliation reads the operator: then matches, differs, unreadable or nothing-to-read. */
  reconciled: Generated<string>;
  reconciliation: Generated<string>;
  checked_at: NullableTimestamp;
}

/** An end user: the workflow that owns their wallet, and their public view once written. */
export interface EndUsersTable {
  end_user_id: string;
  workflow_id: string;
  wallet_id: string | null;
  revision: Generated<number>;
  view: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The end user's latest activity (wallet made, deposit quote shown, off-ramp started): reconciliation's order. */
  active_at: ColumnType<string, string | undefined, string>;
  /** When reconciliation last checked the wallet against the operator. */
  wallet_checked_at: NullableTimestamp;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'no-endpoint';

/** One outcome event, from the moment its process raised it, and how its delivery stands. */
export interface OutcomeEventsTable {
  webhook_id: string;
  /** The workflow that raised it (a test event: `test`); events of one process go in `sequence` order. */
  process_id: string;
  sequence: number;
  type: string;
  end_user_id: string | null;
  occurred_at: Timestamp;
  body: Json<unknown>;
  delivery: DeliveryState;
  attempts: Generated<number>;
  /** While pending: when the dispatcher may try it next. */
  next_attempt_at: NullableTimestamp;
  /** An attempt under way: no other dispatcher takes the event until then (its dispatcher may have died). */
  leased_until: NullableTimestamp;
  /** Set at a delivery's first attempt: when it is given up. */
  give_up_at: NullableTimestamp;
  /** How long a delivery is retried (the process's CLIENT_WEBHOOK_RETRY_FOR; a test event's own). */
  retry_for_ms: ColumnType<string, number, number>;
  last_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  error: string | null;
  /** Labels of the endpoints that confirmed this delivery: a retry goes only to the others. */
  confirmed_endpoints: ColumnType<string[], string[] | undefined, string[]>;
  /** The last bulk redelivery that requeued it. */
  redelivery_job: string | null;
  /** The trace of the work that raised it: its deliveries join that trace. */
  trace_parent: ColumnType<string | null, string | null | undefined, string | null>;
  recorded_at: Generated<string>;
}

/** A bulk redelivery: its filter and how many events it requeued (its progress is counted from those events). */
export interface RedeliveryJobsTable {
  job_id: string;
  filter: Json<unknown>;
  matched: number;
  started_at: Timestamp;
}

/** Each attempt of each delivery: when, and what every endpoint answered. */
export interface DeliveryAttemptsTable {
  webhook_id: string;
  attempt: number;
  started_at: Timestamp;
  ended_at: NullableTimestamp;
  outcome: 'confirmed' | 'refused' | 'no-endpoint' | null;
  error: string | null;
}

/** A client endpoint that refused deliveries: since when, and whether its incident is open. */
export interface EndpointHealthTable {
  label: string;
  failing_since: NullableTimestamp;
  incident_open: Generated<boolean>;
}

/** One incident of the incident store: open until resolved, at most one open per key. */
export interface IncidentsTable {
  id: Generated<string>;
  key: string;
  kind: string;
  network: string | null;
  deposit_transaction_id: string | null;
  message: string;
  /** The workflow that raised it first, and the one that raised it last. */
  workflow_id: string;
  last_workflow_id: string;
  details: Json<Record<string, string | number | boolean | null>>;
  first_seen: Timestamp;
  last_seen: Timestamp;
  /** How many raises it counted (an endpoint's incident: the outcome events it missed). */
  occurrences: number;
  /** The raise that opened it: its retries notify again, nobody else does. */
  opened_by: string;
  /** Someone on call took it: who, why and when. */
  acknowledged: ColumnType<{ by: string; reason: string; at: string } | null, string | null, string | null>;
  resolved_at: NullableTimestamp;
  resolution: string | null;
  /** The request that closed it: the process whose cause cleared, or `person/<who>`. */
  resolved_by: string | null;
}

/** One Idempotency-Key of one POST route: who holds it, and the first answer once there is one. */
export interface IdempotencyKeysTable {
  route: string;
  key_digest: string;
  fingerprint: string;
  /** A request holds the key while it runs; a claim silent past its lease may be taken over. */
  claim_id: string;
  claimed_until: Timestamp;
  answer_status: number | null;
  answer_body: ColumnType<unknown, string | null | undefined, string | null>;
  expires_at: Timestamp;
}

/** A reconciliation run (the chain of its continue-as-new runs): its budget, and its progress as last recorded. */
export interface ReconcileRunsTable {
  /** The run's workflow ID. */
  run_id: string;
  started_at: Timestamp;
  /** Operator calls the run may make: what its interval's budget had left when it began. */
  budget: number;
  operator_calls: Generated<number>;
  progress: Json<unknown>;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

/** One finding of a run: a process behind the operator, an unknown deposit, unaccounted funds, ... */
export interface ReconcileFindingsTable {
  run_id: string;
  kind: string;
  subject: string;
  finding: Json<unknown>;
  found_at: Generated<string>;
}

export interface LedgerSchema {
  ramps: RampsTable;
  bookings: BookingsTable;
  end_users: EndUsersTable;
  outcome_events: OutcomeEventsTable;
  redelivery_jobs: RedeliveryJobsTable;
  delivery_attempts: DeliveryAttemptsTable;
  endpoint_health: EndpointHealthTable;
  idempotency_keys: IdempotencyKeysTable;
  reconcile_runs: ReconcileRunsTable;
  reconcile_findings: ReconcileFindingsTable;
  incidents: IncidentsTable;
}
