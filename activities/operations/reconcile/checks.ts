/**
 * The pure half of reconciliation: its budget of operator calls, which wallets a run checks, which operator
 * snapshots are ahead of the ledger or of a process, which deposits and balances no process accounts for, and the
 * findings it reports.
 */
import { compareDecimals } from '../../../src/domain/decimal';
import { nativeAssetOfNetwork, TRANSACTION_KINDS } from '../../../src/domain/vocabulary';
import type { HeldResources } from '../../../src/ledger/ramp-views';
import type { OpenRampRow, WalletsDue } from '../../../src/ledger/reconcile-pages';
import type { OffRampView, OnRampView } from '../../../src/ledger/views';
import type { Transaction, WalletAddress } from '../../../src/operator/schemas';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import type { OffRampRole, OffRampState } from '../../../workflows/ramps/offramp/types';
import type { ForwardOutcome } from '../../../workflows/ramps/router/types';
import {
  orderRank,
  type TransactionSnapshot,
  transactionRank,
} from '../../../workflows/ramps/shared/snapshots';

export const HANDED_OVER = 'handed the fresh snapshot to the process';
export const ORDER_REPORTED = 'reported (the process reads the order when it reaches settlement)';
export const NOT_STARTED = 'reported (startMissing is off)';

/** The process a finding concerns, and its end user. */
export interface ProcessOfFinding {
  workflowId: string;
  endUserId: string | null;
}

/** An end user's process and its deposit wallet. */
export interface EndUserWallet extends ProcessOfFinding {
  walletId: string;
}

// ---------------------------------------------------------------------------------------------- budget

/**
 * Operator calls reconciliation may make per second of its interval, on average: 36,000 an hour. The operator
 * publishes no rate limit, so this is a share we choose of what it serves the ramps themselves; at two calls a
 * wallet and a day's round it keeps an installed base of a few hundred thousand wallets covered.
 */
export const OPERATOR_CALLS_PER_SECOND = 10;

/** The operator calls of one interval. */
export const callBudget = (intervalMs: number): number =>
  Math.floor((intervalMs / 1000) * OPERATOR_CALLS_PER_SECOND);

// ---------------------------------------------------------------------------------------------- wallets due

/** Every wallet is checked at least once a day, whatever its activity. */
export const WALLET_ROUND_MS = 24 * 60 * 60 * 1000;
/**
 * A wallet active within the last day (a deposit quote shown, an off-ramp started) is checked at every run: its
 * deposit, or the next one, is the one whose every webhook may be lost.
 */
export const RECENT_ACTIVITY_MS = 24 * 60 * 60 * 1000;

/**
 * The wallets a run started at `startedAt` checks: never checked, checked more than a round less one interval ago
 * (so that the next run a day on finds it due), or active lately and not yet checked by this run.
 */
export function walletsDue(startedAt: string, intervalMs: number): WalletsDue {
  const start = Date.parse(startedAt);
  return {
    runStartedAt: startedAt,
    staleBefore: new Date(start - Math.max(0, WALLET_ROUND_MS - intervalMs)).toISOString(),
    activeSince: new Date(start - RECENT_ACTIVITY_MS).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------- open ramps

/**
 * What the ledger holds of an open ramp's resources: as its last write recorded them, or for a row written before it
 * kept them, what its view shows.
 */
export function heldOfRow(ramp: Pick<OpenRampRow, 'direction' | 'view' | 'resources'>): HeldResources {
  if (ramp.resources) return ramp.resources;
  const view = ramp.view as Partial<OffRampView & OnRampView>;
  const held: HeldResources = {};
  if (view.deposit) held.deposit = { id: view.deposit.transactionId, status: view.deposit.status };
  if (ramp.direction === 'on-ramp' && view.order)
    held.order = { id: view.order.id, status: view.order.status };
  return held;
}

/** The operator's fresh reads of an open ramp's resources, by role (absent: not read, or none yet). */
export type FreshReads = Partial<Record<keyof HeldResources, { status: string } | undefined>>;

/** Whether the operator has any of the ramp's resources further along than the ledger holds them. */
export function operatorAhead(held: HeldResources, fresh: FreshReads): boolean {
  return (Object.entries(fresh) as Array<[keyof HeldResources, { status: string } | undefined]>).some(
    ([role, read]) => {
      if (!read) return false;
      const rank = role === 'order' ? orderRank : transactionRank;
      return rank(read.status) > rank(held[role]?.status);
    },
  );
}

/** What handing a fresh snapshot to a process did: a process that had ended meanwhile is left as it ended. */
export function handOverAction(outcome: ForwardOutcome): string {
  return outcome.closed
    ? `not handed over: the process had ended (${outcome.closed.status ?? outcome.closed.executionStatus})`
    : HANDED_OVER;
}

/** A process behind the operator on one resource; `ours` undefined when the process has not seen it yet. */
export function statusMismatch(
  process: ProcessOfFinding,
  subject: string,
  ours: string | undefined,
  operator: string,
  action: string,
): ReconcileFinding {
  return {
    kind: 'status-mismatch',
    workflowId: process.workflowId,
    subject,
    ours: ours ?? 'unknown',
    operator,
    action,
    endUserId: process.endUserId,
  };
}

/** The off-ramp's transactions that the operator has further along than the process holds them, in role order. */
export function transactionsAhead(
  state: Pick<OffRampState, OffRampRole>,
  reads: ReadonlyArray<readonly [OffRampRole, TransactionSnapshot | undefined]>,
): Array<{ role: OffRampRole; fresh: TransactionSnapshot }> {
  const ahead: Array<{ role: OffRampRole; fresh: TransactionSnapshot }> = [];
  for (const [role, fresh] of reads) {
    if (fresh && transactionRank(fresh.status) > transactionRank(state[role]?.status))
      ahead.push({ role, fresh });
  }
  return ahead;
}

// ---------------------------------------------------------------------------------------------- deposit wallets

/** The wallet's deposits that belong to an off-ramp: an on-ramp's deposit carries its order. */
export const offRampDeposits = (transactions: readonly Transaction[]): Transaction[] =>
  transactions.filter((tx) => tx.type === TRANSACTION_KINDS.deposit.type && !tx.orderId);

/** What starting the off-ramp of an unknown deposit did. */
export function startAction(outcome: ForwardOutcome): string {
  return outcome.closed
    ? `its off-ramp had already ended (${outcome.closed.status ?? outcome.closed.executionStatus})`
    : 'started its off-ramp (signal-with-start)';
}

/** A deposit of the wallet that no off-ramp knew about. */
export function unknownDeposit(
  tx: Transaction,
  offRampId: string,
  wallet: EndUserWallet,
  action: string,
): ReconcileFinding {
  return {
    kind: 'unknown-deposit',
    workflowId: offRampId,
    subject: `deposit ${tx.id}`,
    ours: 'no process',
    operator: tx.status,
    action,
    endUserId: wallet.endUserId,
    walletId: wallet.walletId,
    ...(tx.network ? { network: tx.network } : {}),
    ...(tx.asset ? { asset: tx.asset } : {}),
    ...(tx.amount ? { amount: tx.amount } : {}),
  };
}

/**
 * The wallet's token balances that no open off-ramp accounts for (`covers` says which networks one does). A
 * network's native asset pays gas and is never an off-ramp's; an empty balance holds nothing.
 */
export function unaccountedFunds(
  wallet: EndUserWallet,
  entries: readonly WalletAddress[],
  covers: (network: string) => boolean,
): ReconcileFinding[] {
  const findings: ReconcileFinding[] = [];
  for (const entry of entries) {
    const network = entry.network.name;
    const native = nativeAssetOfNetwork(network);
    for (const balance of entry.balances) {
      if (balance.asset === native || compareDecimals(balance.amount, '0') <= 0) continue;
      if (covers(network)) continue;
      findings.push({
        kind: 'unaccounted-funds',
        workflowId: wallet.workflowId,
        subject: `wallet ${wallet.walletId} ${network} ${balance.asset}`,
        ours: 'no open off-ramp',
        operator: `${balance.amount} ${balance.asset}`,
        action: 'alert raised',
        endUserId: wallet.endUserId,
        walletId: wallet.walletId,
        network,
        asset: balance.asset,
        amount: balance.amount,
      });
    }
  }
  return findings;
}
