/**
 * Reconciliation's second half: every running end user's deposit wallet. Deposits no process knows about (listed
 * with the ASSUMED wallet-transactions route) get their off-ramp started (signal-with-start); token balances that
 * no open off-ramp of the wallet accounts for are reported as unaccounted funds.
 */
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { offRampWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { OperatorError } from '../../../src/operator/errors';
import type { Transaction } from '../../../src/operator/schemas';
import { signalWithStartProcess } from '../../../src/temporal/process-start';
import { endUserStateQuery } from '../../../workflows/end-user/messages';
import { unreadableProcess } from '../../../workflows/operations/reconcile/findings';
import type { ReconcileFinding } from '../../../workflows/operations/reconcile/types';
import { offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';
import type { ActivityDeps } from '../../deps';
import { cancellable } from '../../shared/cancellable';
import { callOperator } from '../../shared/operator-failure';
import * as snapshots from '../../shared/snapshots';
import {
  type EndUserWallet,
  NOT_STARTED,
  offRampDeposits,
  runningEndUsersQuery,
  runningOffRampsOfWalletQuery,
  startAction,
  unaccountedFunds,
  unknownDeposit,
} from './checks';

type Deps = Pick<ActivityDeps, 'operator' | 'temporal' | 'logger'>;

export interface DepositWalletsInput {
  timings: WorkflowTimings;
  startMissing: boolean;
}

/** One run over the wallets: what it found, and whether the operator lists wallet transactions. */
interface WalletsRun {
  readonly deps: Deps;
  readonly input: DepositWalletsInput;
  /** The worker's task queue, a checked visibility literal. */
  readonly taskQueue: string;
  readonly findings: ReconcileFinding[];
  /** Cleared at the first refusal: the rest of the run checks balances only. */
  transactionListing: boolean;
}

export async function reconcileDepositWallets(
  deps: Deps,
  taskQueue: string,
  input: DepositWalletsInput,
): Promise<{ checked: number; transactionListing: boolean; findings: ReconcileFinding[] }> {
  const run: WalletsRun = { deps, input, taskQueue, findings: [], transactionListing: true };
  let checked = 0;
  for await (const execution of deps.temporal.workflow.list({
    query: runningEndUsersQuery(taskQueue),
    pageSize: 100,
  })) {
    Context.current().heartbeat(checked);
    const wallet = await walletOf(run, execution.workflowId);
    if (!wallet) continue;
    checked += 1;
    await reconcileWallet(run, wallet);
  }
  return { checked, transactionListing: run.transactionListing, findings: run.findings };
}

/** The end user's deposit wallet; undefined without one yet, or when the process cannot be read (a finding). */
async function walletOf(run: WalletsRun, workflowId: string): Promise<EndUserWallet | undefined> {
  const { temporal } = run.deps;
  try {
    const state = await cancellable(temporal, () =>
      temporal.workflow.getHandle(workflowId).query(endUserStateQuery),
    );
    return state.wallet
      ? { workflowId, walletId: state.wallet.walletId, endUserId: state.endUserId }
      : undefined;
  } catch (error) {
    run.findings.push(unreadableProcess(workflowId, error instanceof Error ? error.message : String(error)));
    return undefined;
  }
}

/**
 * One wallet: with the operator's transaction list, its deposits against their off-ramps and its balances against
 * the networks of running ones; without it, its balances against any running off-ramp of the wallet.
 */
async function reconcileWallet(run: WalletsRun, wallet: EndUserWallet): Promise<void> {
  const transactions = await walletTransactions(run, wallet.walletId);
  let covers: (network: string) => boolean;
  if (transactions) {
    const covered = await reconcileDeposits(run, wallet, transactions);
    covers = (network) => covered.has(network);
  } else {
    const anyRunning = await anyRunningOffRamp(run, wallet.walletId);
    covers = () => anyRunning;
  }
  const entries = await callOperator(() => run.deps.operator.getWalletAddresses(wallet.walletId));
  run.findings.push(...unaccountedFunds(wallet, entries, covers));
}

/** The wallet's transactions, or undefined once the operator has answered that it does not list them. */
async function walletTransactions(run: WalletsRun, walletId: string): Promise<Transaction[] | undefined> {
  if (!run.transactionListing) return undefined;
  try {
    return await run.deps.operator.listWalletTransactions(walletId);
  } catch (error) {
    if (!(error instanceof OperatorError) || (error.status !== 404 && error.status !== 405)) throw error;
    run.transactionListing = false;
    run.deps.logger.warn(
      { walletId },
      'The operator does not list wallet transactions: reconciliation checks balances only',
    );
    return undefined;
  }
}

/** Each off-ramp deposit of the wallet against its process; answers the networks with an off-ramp running. */
async function reconcileDeposits(
  run: WalletsRun,
  wallet: EndUserWallet,
  transactions: readonly Transaction[],
): Promise<Set<string>> {
  const covered = new Set<string>();
  for (const tx of offRampDeposits(transactions)) {
    if ((await offRampRunning(run, wallet, tx)) && tx.network) covered.add(tx.network);
  }
  return covered;
}

/** Whether the deposit's off-ramp runs (after reconciliation started it, when it had none). */
async function offRampRunning(run: WalletsRun, wallet: EndUserWallet, tx: Transaction): Promise<boolean> {
  const offRampId = offRampWorkflowId(tx.id);
  try {
    return (await run.deps.temporal.workflow.getHandle(offRampId).describe()).status.name === 'RUNNING';
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
  if (!run.input.startMissing) {
    run.findings.push(unknownDeposit(tx, offRampId, wallet, NOT_STARTED));
    return false;
  }
  // Under the one-run policy: a process that ended meanwhile is left as it ended.
  const outcome = await signalWithStartProcess(run.deps.temporal, WORKFLOW_TYPES.offRamp, {
    workflowId: offRampId,
    taskQueue: run.taskQueue,
    args: [{ depositTransactionId: tx.id, timings: run.input.timings }],
    signal: offRampTransactionSignal,
    signalArgs: [{ role: 'deposit', transaction: snapshots.toTransactionSnapshot(tx) }],
  });
  run.findings.push(unknownDeposit(tx, offRampId, wallet, startAction(outcome)));
  return outcome.delivered;
}

/** Whether any off-ramp of the wallet runs (the check without the operator's transaction list). */
async function anyRunningOffRamp(run: WalletsRun, walletId: string): Promise<boolean> {
  const query = runningOffRampsOfWalletQuery(run.taskQueue, walletId);
  for await (const _ of run.deps.temporal.workflow.list({ query, pageSize: 1 })) return true;
  return false;
}
