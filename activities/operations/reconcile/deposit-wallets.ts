/**
 * Reconciliation's second pass, one end user's deposit wallet at a time: its deposits (listed with the ASSUMED
 * wallet-transactions route) against the off-ramps the ledger holds, a deposit no process knows getting its off-ramp
 * through the router's own forward; then its token balances against the networks of its open off-ramps. A wallet
 * checked is marked so in the ledger: the next run takes it again when it is due.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { offRampWorkflowId } from '../../../src/domain/ids';
import type { WorkflowTimings } from '../../../src/domain/timings';
import {
  hasOpenOffRamp,
  markWalletChecked,
  offRampsKnown,
  type WalletRow,
} from '../../../src/ledger/reconcile-pages';
import { OperatorError } from '../../../src/operator/errors';
import type { Transaction } from '../../../src/operator/schemas';
import type { Hop, HopPlace } from '../../../src/routing/hop';
import { describeProcess } from '../../../src/temporal/process-start';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import type { ActivityDeps } from '../../deps';
import { callOperator } from '../../shared/operator-failure';
import * as snapshots from '../../shared/snapshots';
import { NOT_STARTED, offRampDeposits, startAction, unaccountedFunds, unknownDeposit } from './checks';

/** The most operator calls one wallet takes: its transactions, and its addresses (two pages for a wallet on many networks). */
export const WALLET_CALLS_AT_MOST = 3;

export interface WalletCheck {
  deps: Pick<ActivityDeps, 'operator' | 'temporal' | 'ledger' | 'logger'>;
  hop: Hop;
  place: HopPlace;
  timings: WorkflowTimings;
  startMissing: boolean;
  /** Cleared at the operator's first refusal to list a wallet's transactions: balances only from then on. */
  listing: { transactions: boolean };
}

/**
 * One wallet: with the operator's transaction list, its deposits against their off-ramps and its balances against
 * the networks of open ones; without it, its balances against any open off-ramp of its end user.
 */
export async function checkWallet(check: WalletCheck, wallet: WalletRow): Promise<ReconcileFinding[]> {
  const findings: ReconcileFinding[] = [];
  const transactions = await walletTransactions(check, wallet.walletId);
  let covers: (network: string) => boolean;
  if (transactions) {
    const covered = await reconcileDeposits(check, wallet, transactions, findings);
    covers = (network) => covered.has(network);
  } else {
    const anyOpen = await hasOpenOffRamp(check.deps.ledger, wallet.endUserId);
    covers = () => anyOpen;
  }
  const entries = await callOperator(() => check.deps.operator.getWalletAddresses(wallet.walletId));
  findings.push(...unaccountedFunds(wallet, entries, covers));
  await markWalletChecked(check.deps.ledger, wallet.endUserId);
  return findings;
}

/** The wallet's transactions, or undefined once the operator has answered that it does not list them. */
async function walletTransactions(check: WalletCheck, walletId: string): Promise<Transaction[] | undefined> {
  if (!check.listing.transactions) return undefined;
  try {
    return await check.deps.operator.listWalletTransactions(walletId);
  } catch (error) {
    if (!(error instanceof OperatorError) || (error.status !== 404 && error.status !== 405)) throw error;
    check.listing.transactions = false;
    check.deps.logger.warn(
      { walletId },
      'The operator does not list wallet transactions: reconciliation checks balances only',
    );
    return undefined;
  }
}

/** Each off-ramp deposit of the wallet against its off-ramp; answers the networks with one open. */
async function reconcileDeposits(
  check: WalletCheck,
  wallet: WalletRow,
  transactions: readonly Transaction[],
  findings: ReconcileFinding[],
): Promise<Set<string>> {
  const deposits = offRampDeposits(transactions);
  const known = await offRampsKnown(
    check.deps.ledger,
    deposits.map((tx) => offRampWorkflowId(tx.id)),
  );
  const covered = new Set<string>();
  for (const tx of deposits) {
    const ramp = known.get(offRampWorkflowId(tx.id));
    const open = ramp ? ramp.open : await offRampOfUnknown(check, wallet, tx, findings);
    if (open && tx.network) covered.add(tx.network);
  }
  return covered;
}

/**
 * A deposit whose off-ramp the ledger does not hold: Temporal may still know it (it ended before the ledger, or
 * started a moment ago); else it is started now, with signal-with-start under the one-run policy. Answers whether
 * the off-ramp runs.
 */
async function offRampOfUnknown(
  check: WalletCheck,
  wallet: WalletRow,
  tx: Transaction,
  findings: ReconcileFinding[],
): Promise<boolean> {
  const offRampId = offRampWorkflowId(tx.id);
  try {
    return (await describeProcess(check.deps.temporal, offRampId)).running;
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
  if (!check.startMissing) {
    findings.push(unknownDeposit(tx, offRampId, wallet, NOT_STARTED));
    return false;
  }
  const outcome = await check.hop.forwardToOffRamp(
    {
      depositTransactionId: tx.id,
      signal: { role: 'deposit', transaction: snapshots.toTransactionSnapshot(tx) },
      timings: check.timings,
    },
    check.place,
  );
  findings.push(unknownDeposit(tx, offRampId, wallet, startAction(outcome)));
  return outcome.closed === undefined;
}
