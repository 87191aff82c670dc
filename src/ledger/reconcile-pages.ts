/**
 * What reconciliation reads of the ledger, a page at a time: open ramps oldest first, and end users' deposit wallets
 * due a check, most recently active first; the off-ramps the ledger knows of a wallet's deposits, and the ramps it
 * lacks. A page continues
 * after the last row of the one before (keyset), so each costs the same however far the pass has gone; a cursor's
 * time is PostgreSQL's own text of it, so no precision is lost between pages.
 */
import { sql } from 'kysely';
import type { Ledger } from '../database/connection';
import type { HeldResources } from './ramp-views';
import type { OffRampView, OnRampView } from './views';

/** Where a page stopped: its last row's time (PostgreSQL's text) and ID. */
export interface LedgerCursor {
  at: string;
  id: string;
}

/** An open ramp as the ledger holds it. */
export interface OpenRampRow {
  workflowId: string;
  direction: 'on-ramp' | 'off-ramp';
  view: OffRampView | OnRampView;
  /** Null for a ramp not written since the ledger started keeping them. */
  resources: HeldResources | null;
  cursor: LedgerCursor;
}

/** Open ramps after the cursor, oldest first (they are the ones a lost event has held up longest). */
export async function openRampsAfter(
  db: Ledger,
  after: LedgerCursor | null,
  limit: number,
): Promise<OpenRampRow[]> {
  let select = db
    .selectFrom('ramps')
    .select(['workflow_id', 'direction', 'view', 'resources', sql<string>`started_at::text`.as('at')])
    .where('ended_at', 'is', null)
    .orderBy('started_at')
    .orderBy('workflow_id')
    .limit(limit);
  if (after)
    select = select.where(sql<boolean>`(started_at, workflow_id) > (${after.at}::timestamptz, ${after.id})`);
  const rows = await select.execute();
  return rows.map((row) => ({
    workflowId: row.workflow_id,
    direction: row.direction,
    view: row.view as OffRampView | OnRampView,
    resources: row.resources as HeldResources | null,
    cursor: { at: row.at, id: row.workflow_id },
  }));
}

/** An end user's deposit wallet. */
export interface WalletRow {
  endUserId: string;
  workflowId: string;
  walletId: string;
  cursor: LedgerCursor;
}

/** Which wallets a run checks: those not checked since it started that are new, stale or active. */
export interface WalletsDue {
  /** The run's start: a wallet checked since then is done. */
  runStartedAt: string;
  /** A wallet last checked before this is due whatever its activity. */
  staleBefore: string;
  /** A wallet active since this is due at every run. */
  activeSince: string;
}

/** Wallets due a check after the cursor, most recently active first. */
export async function walletsDueAfter(
  db: Ledger,
  due: WalletsDue,
  after: LedgerCursor | null,
  limit: number,
): Promise<WalletRow[]> {
  let select = db
    .selectFrom('end_users')
    .select(['end_user_id', 'workflow_id', 'wallet_id', sql<string>`active_at::text`.as('at')])
    .where('wallet_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('wallet_checked_at', 'is', null),
        eb('wallet_checked_at', '<', due.staleBefore),
        eb.and([eb('wallet_checked_at', '<', due.runStartedAt), eb('active_at', '>=', due.activeSince)]),
      ]),
    )
    .orderBy('active_at', 'desc')
    .orderBy('end_user_id')
    .limit(limit);
  if (after)
    select = select.where(
      sql<boolean>`(active_at < ${after.at}::timestamptz or (active_at = ${after.at}::timestamptz and end_user_id > ${after.id}))`,
    );
  const rows = await select.execute();
  return rows.map((row) => ({
    endUserId: row.end_user_id,
    workflowId: row.workflow_id,
    walletId: row.wallet_id!,
    cursor: { at: row.at, id: row.end_user_id },
  }));
}

export async function markWalletChecked(db: Ledger, endUserId: string): Promise<void> {
  await db
    .updateTable('end_users')
    .set({ wallet_checked_at: sql<string>`now()` })
    .where('end_user_id', '=', endUserId)
    .execute();
}

/** Which of these off-ramps the ledger holds, and whether each is open. */
export async function offRampsKnown(
  db: Ledger,
  workflowIds: readonly string[],
): Promise<Map<string, { open: boolean }>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ramps')
    .select(['workflow_id', 'ended_at'])
    .where('workflow_id', 'in', [...workflowIds])
    .execute();
  return new Map(rows.map((row) => [row.workflow_id, { open: row.ended_at === null }]));
}

/** Whether the end user has an open off-ramp. */
export async function hasOpenOffRamp(db: Ledger, endUserId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ramps')
    .select('workflow_id')
    .where('end_user_id', '=', endUserId)
    .where('direction', '=', 'off-ramp')
    .where('ended_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these ramps the ledger has no row of. */
export async function unrecorded(db: Ledger, workflowIds: readonly string[]): Promise<string[]> {
  if (workflowIds.length === 0) return [];
  const rows = await db
    .selectFrom('ramps')
    .select('workflow_id')
    .where('workflow_id', 'in', [...workflowIds])
    .execute();
  const have = new Set(rows.map((row) => row.workflow_id));
  return workflowIds.filter((id) => !have.has(id));
}
