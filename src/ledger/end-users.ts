/**
 * End users in the ledger: which workflow owns each end user's wallet, the wallet (so an off-ramp finds its end user
 * by its deposit wallet with one read), and the view a client reads, written by the end user's own workflow with
 * the events it raised.
 */
import type { RaisedEvent } from '../domain/outcome-events';
import type { Ledger } from '../database/connection';
import { preparedStatement, runPrepared } from '../database/prepared';
import type { RecordedEndUser } from '../../workflows/end-user/types';
import { raisedEventsInsert, raisedEventsValues } from './outcome-events';
import type { EndUserView } from './views';

export interface EndUserRecord {
  workflowId: string;
  state: RecordedEndUser;
  /** The workflow's count of its writes, carried over continue-as-new. */
  revision: number;
  raised: RaisedEvent[];
  retryForMs: number;
  /** When it was written, in the workflow's time. */
  at: string;
  /** The trace the write runs in, kept with its events. */
  traceParent?: string;
}

export function endUserView(state: RecordedEndUser, updatedAt: string): EndUserView {
  const wallet = state.wallet;
  return {
    endUserId: state.endUserId,
    walletStatus: state.walletStatus,
    wallet: wallet
      ? {
          walletId: wallet.walletId,
          externalUserId: wallet.externalUserId,
          addresses: wallet.addresses,
          createdAt: wallet.createdAt,
        }
      : null,
    createdAt: state.createdAt,
    updatedAt,
  };
}

/**
 * The end user's view and wallet, never over a newer write, with the events it raised (each recorded once) and the
 * dispatchers' wake-up (sent at commit) when one is new: one statement, so neither is kept without the other.
 */
const WRITE_END_USER = preparedStatement(
  'write_end_user',
  `with written as (
    insert into end_users (end_user_id, workflow_id, wallet_id, revision, view, created_at, updated_at)
    values ($1, $2, $3, $4, $5, $6, $7)
    on conflict (end_user_id) do update set wallet_id = excluded.wallet_id, revision = excluded.revision,
      view = excluded.view, updated_at = excluded.updated_at
    where end_users.revision <= excluded.revision
  ), ${raisedEventsInsert({ process: 2, values: 8 })}`,
);

/** Writes the end user's view and wallet and its new events; idempotent, and never over a newer write. */
export async function writeEndUser(db: Ledger, record: EndUserRecord): Promise<void> {
  const { state, revision, at } = record;
  await runPrepared(db, WRITE_END_USER, [
    state.endUserId,
    record.workflowId,
    state.wallet?.walletId ?? null,
    revision,
    JSON.stringify(endUserView(state, at)),
    state.createdAt,
    at,
    ...raisedEventsValues(record.raised, record.retryForMs, record.traceParent),
  ]);
}

/** The end user's view, or undefined for an end user whose workflow has not written one. */
export async function readEndUserView(db: Ledger, endUserId: string): Promise<EndUserView | undefined> {
  const row = await db
    .selectFrom('end_users')
    .select('view')
    .where('end_user_id', '=', endUserId)
    .executeTakeFirst();
  return (row?.view ?? undefined) as EndUserView | undefined;
}

/** Who owns a deposit wallet: its end user and their workflow, or undefined for a wallet no end user has. */
export async function ownerOfWallet(
  db: Ledger,
  walletId: string,
): Promise<{ endUserId: string; workflowId: string } | undefined> {
  const row = await db
    .selectFrom('end_users')
    .select(['end_user_id', 'workflow_id'])
    .where('wallet_id', '=', walletId)
    .executeTakeFirst();
  return row ? { endUserId: row.end_user_id, workflowId: row.workflow_id } : undefined;
}

/**
 * Marks the end user active at `at` (a deposit quote shown, an off-ramp started), unless a later activity is already
 * recorded: reconciliation checks the wallets of active end users first, and every interval.
 */
export async function markActive(db: Ledger, endUserId: string, at: string): Promise<void> {
  await db
    .updateTable('end_users')
    .set({ active_at: at })
    .where('end_user_id', '=', endUserId)
    .where('active_at', '<', at)
    .execute();
}
