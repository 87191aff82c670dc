/**
 * The pure half of reconciliation: the visibility queries it lists processes with, which operator snapshots are
 * ahead of a process, which deposits and balances no process accounts for, and the findings it reports.
 */
import { compareDecimals } from '../../../src/domain/decimal';
import { WORKFLOW_TYPES } from '../../../src/domain/ids';
import { nativeAssetOfNetwork, TRANSACTION_KINDS } from '../../../src/domain/vocabulary';
import type { Transaction, WalletAddress } from '../../../src/operator/schemas';
import type { ProcessSignalOutcome } from '../../../src/temporal/process-start';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import type { OffRampRole, OffRampState } from '../../../workflows/ramps/offramp/types';
import { type TransactionSnapshot, transactionRank } from '../../../workflows/ramps/shared/snapshots';

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

// ---------------------------------------------------------------------------------------------- queries

/** Every running on-ramp and off-ramp of a task queue (a checked visibility literal). */
export const openRampsQuery = (taskQueue: string) =>
  `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running' AND RampDirection IN ('on-ramp', 'off-ramp')`;

/** Every running end user of a task queue (a checked visibility literal). */
export const runningEndUsersQuery = (taskQueue: string) =>
  `TaskQueue = '${taskQueue}' AND WorkflowType = '${WORKFLOW_TYPES.endUser}' AND ExecutionStatus = 'Running'`;

/**
 * Every running off-ramp of one deposit wallet. The wallet ID is the operator's: characters a visibility query
 * cannot carry are dropped rather than failing the run.
 */
export function runningOffRampsOfWalletQuery(taskQueue: string, walletId: string): string {
  const walletLiteral = walletId.replace(/[^A-Za-z0-9._:@/-]/g, '');
  return `TaskQueue = '${taskQueue}' AND WorkflowType = '${WORKFLOW_TYPES.offRamp}' AND ExecutionStatus = 'Running' AND RampWalletId = '${walletLiteral}'`;
}

// ---------------------------------------------------------------------------------------------- open processes

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
export function startAction(outcome: ProcessSignalOutcome): string {
  return outcome.delivered
    ? 'started its off-ramp (signal-with-start)'
    : `its off-ramp had already ended (${outcome.closed.status ?? outcome.closed.executionStatus})`;
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
