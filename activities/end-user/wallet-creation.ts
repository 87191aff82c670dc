/**
 * Creating a wallet once per journal, for the end user's deposit wallet and the account's master and gas wallets
 * alike: the request is journaled into the owner workflow before CreateWallet is sent, the answer right after, and
 * a retried attempt returns the journaled answer (workflows/end-user/wallet-journal.ts keeps the rules).
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { temporal as proto } from '@temporalio/proto';
import { type AccountWalletRole, NETWORKS } from '../../src/domain/vocabulary';
import { walletCreatedSignal, walletCreationRequestedSignal } from '../../workflows/end-user/messages';
import type { WalletCreatedSignal } from '../../workflows/end-user/wallet-journal';
import type { ActivityDeps } from '../deps';
import { cancellable } from '../shared/cancellable';
import { callOperator } from '../shared/operator-failure';

/**
 * Guards of the wallet-creation activities against a "zombie" attempt: Temporal times an attempt out on the
 * server, but the activity function keeps running on the worker. An attempt that sent CreateWallet after its own
 * timeout would race the next attempt and leave an extra wallet. So an attempt reads and writes the journal within
 * a bounded part of its time, sends CreateWallet only while enough of its time is left for the answer to be
 * journaled, and heartbeats throughout so that its heartbeat timeout passes only when its worker is gone.
 */

/** Share of start-to-close a journal read or write may take. */
const JOURNAL_SHARE = 0.4;
/** Share of start-to-close that must remain when CreateWallet is sent. */
const CREATE_MIN_REMAINING_SHARE = 0.5;

/**
 * Milliseconds left in this attempt. `startedAtMs` is when the activity function began: the server starts the
 * start-to-close clock a moment earlier (dispatch to this worker), a difference of milliseconds.
 */
function attemptTimeLeftMs(startedAtMs: number): number {
  return startedAtMs + Context.current().info.startToCloseTimeoutMs - Date.now();
}

/** When a journal read or write started now must have answered: within its share, and within the attempt. */
function journalDeadlineMs(startedAtMs: number): number {
  const now = Date.now();
  return (
    now +
    Math.min(attemptTimeLeftMs(startedAtMs), Context.current().info.startToCloseTimeoutMs * JOURNAL_SHARE)
  );
}

/** Runs a journal read or write, or fails this attempt (retryable, nothing created) if it does not answer in time. */
export async function journalInTime<T>(
  call: Promise<T>,
  startedAtMs: number,
  what = 'the wallet journal',
): Promise<T> {
  const budgetMs = Math.max(0, journalDeadlineMs(startedAtMs) - Date.now());
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(
              ApplicationFailure.retryable(
                `${what} did not answer within ${budgetMs} ms; nothing created`,
                'JournalUnavailable',
              ),
            ),
          budgetMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Heartbeats for as long as the attempt runs, every third of its heartbeat timeout, with `progress()`. A live attempt
 * must not go silent while a journal write or CreateWallet is slow: past the heartbeat timeout the server would take
 * it for a dead worker and start the next attempt beside it, and both would create a wallet. So only a worker that
 * stopped (or stalled for the whole timeout) goes silent. Answers the stop.
 */
function heartbeatThroughout(progress: () => unknown): () => void {
  const context = Context.current();
  context.heartbeat(progress());
  const timeoutMs = context.info.heartbeatTimeoutMs;
  if (!timeoutMs) return () => undefined;
  const timer = setInterval(() => context.heartbeat(progress()), Math.max(1, Math.floor(timeoutMs / 3)));
  return () => clearInterval(timer);
}

/** Throws (retryable, nothing created) when too little of this attempt is left to create and journal safely. */
export function assertTimeToCreate(startedAtMs: number): void {
  const { startToCloseTimeoutMs } = Context.current().info;
  const left = attemptTimeLeftMs(startedAtMs);
  if (left < startToCloseTimeoutMs * CREATE_MIN_REMAINING_SHARE) {
    throw ApplicationFailure.retryable(
      `only ${left} ms left in this attempt: not sending CreateWallet; the next attempt will`,
      'AttemptTooLate',
    );
  }
}

export interface CreatedWallet {
  walletId: string;
  externalUserId: string;
  /** The journaled request that produced it (absent for answers of the older journal format). */
  requestId?: string;
}

/** What the creating activity needs from the worker. */
export type WalletCreationDeps = Pick<ActivityDeps, 'operator' | 'temporal' | 'logger'>;

/** One wallet to create: its owner, its label, and (for an account wallet) its role. */
export interface JournaledCreation {
  /** The workflow that owns the wallet and keeps its journal. */
  workflowId: string;
  externalUserId: string;
  role?: AccountWalletRole;
  /** Log fields naming the wallet's owner (never a secret). */
  logFields: Record<string, string>;
}

/** How often a retry looks again whether the owner's workflow task in flight has ended. */
const IN_FLIGHT_TASK_POLL_MS = 200;
const { PendingWorkflowTaskState } = proto.api.enums.v1;

/**
 * The first answer journaled into the owner's run (for an account wallet: of that role). Read from the run's
 * history: no worker has to process anything (after a crash the owner's workflow task may wait for the dead worker's
 * sticky queue), and no update slot is taken (the client's waiting `ensureDepositWallet` updates may hold them all).
 * But a signal that arrives while one of the owner's workflow tasks is running is held back from the history until
 * that task ends (completed, failed, or timed out when its worker died), so the read waits for no task to be running
 * first; until `giveUpAtMs` at most, after which the attempt fails and creates nothing. The owner cannot continue as
 * new while it waits for this activity, so its journal for this creation is in this run.
 */
async function journaledAnswer(
  temporal: Client,
  workflowId: string,
  runId: string | undefined,
  role: AccountWalletRole | undefined,
  giveUpAtMs: number,
): Promise<WalletCreatedSignal | null> {
  const handle = temporal.workflow.getHandle(workflowId, runId);
  for (;;) {
    const { raw } = await handle.describe();
    if (raw.pendingWorkflowTask?.state !== PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED)
      break;
    if (Date.now() + IN_FLIGHT_TASK_POLL_MS > giveUpAtMs)
      throw ApplicationFailure.retryable(
        `a workflow task of ${workflowId} is still running, which may hold back a journaled answer; nothing created`,
        'JournalUnavailable',
      );
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_TASK_POLL_MS));
  }
  const history = await handle.fetchHistory();
  for (const event of history.events ?? []) {
    const signaled = event.workflowExecutionSignaledEventAttributes;
    if (signaled?.signalName !== walletCreatedSignal.name) continue;
    const [answer] = (await decodeArrayFromPayloads(
      temporal.workflow.options.loadedDataConverter,
      signaled.input?.payloads,
    )) as [WalletCreatedSignal | undefined];
    if (answer && (role === undefined || answer.role === role)) return answer;
  }
  return null;
}

/**
 * Creates a wallet once per journal: a retried attempt returns the answer a previous attempt journaled; otherwise
 * the request is journaled (a durable signal to the owner) BEFORE CreateWallet is sent, and the answer right after
 * it arrives. A crash between the two leaves an unanswered request on record; no instant leaves nothing.
 */
export async function createWalletJournaled(
  deps: WalletCreationDeps,
  spec: JournaledCreation,
): Promise<CreatedWallet> {
  const { operator, temporal, logger } = deps;
  const startedAtMs = Date.now();
  const info = Context.current().info;
  const { attempt } = info;
  const owner = temporal.workflow.getHandle(spec.workflowId);
  let progress: Record<string, unknown> = { phase: 'journal', attempt };
  const stopHeartbeats = heartbeatThroughout(() => progress);
  try {
    return await createOnce();
  } finally {
    stopHeartbeats();
  }

  async function createOnce(): Promise<CreatedWallet> {
    if (attempt > 1) {
      const runId = info.workflowExecution?.runId;
      const journaled = await journalInTime(
        cancellable(temporal, () =>
          journaledAnswer(temporal, spec.workflowId, runId, spec.role, journalDeadlineMs(startedAtMs)),
        ),
        startedAtMs,
      );
      if (journaled) {
        logger.info(
          { ...spec.logFields, walletId: journaled.walletId, attempt },
          'Wallet already journaled; not creating another',
        );
        return {
          walletId: journaled.walletId,
          externalUserId: journaled.externalUserId,
          ...(journaled.requestId ? { requestId: journaled.requestId } : {}),
        };
      }
    }
    // Logged in before the request is journaled: a login that fails leaves no request on record, and a slow one is
    // counted by the time check below instead of delaying CreateWallet inside the window that check guards.
    await callOperator(() => operator.ensureSession());
    assertTimeToCreate(startedAtMs);
    const requestId = `${(info.workflowExecution?.runId ?? '-').slice(0, 8)}/${info.activityId}#${attempt}`;
    const role = spec.role ? { role: spec.role } : {};
    await journalInTime(
      cancellable(temporal, () =>
        owner.signal(walletCreationRequestedSignal, {
          requestId,
          attempt,
          externalUserId: spec.externalUserId,
          ...role,
        }),
      ),
      startedAtMs,
      'the journal of the CreateWallet request',
    );
    // The journal write may have used up the attempt: a request sent now could outlive it.
    assertTimeToCreate(startedAtMs);
    // A heartbeat answered that this attempt is no longer current: the next one creates, not this one.
    Context.current().cancellationSignal.throwIfAborted();
    progress = { phase: 'creating', attempt };
    const wallet = await callOperator(() =>
      operator.createWallet({
        networks: [NETWORKS.ethereum, NETWORKS.tron],
        externalUserId: spec.externalUserId,
      }),
    );
    progress = { phase: 'created', attempt, walletId: wallet.id };
    Context.current().heartbeat(progress);
    try {
      await owner.signal(walletCreatedSignal, {
        walletId: wallet.id,
        externalUserId: spec.externalUserId,
        attempt,
        requestId,
        ...role,
      });
    } catch (error) {
      // The activity result still carries the wallet and its request ID; the journal only narrows the crash window.
      logger.warn({ ...spec.logFields, walletId: wallet.id, err: error }, 'Could not journal the new wallet');
    }
    logger.info({ ...spec.logFields, walletId: wallet.id, attempt }, 'Wallet created');
    return { walletId: wallet.id, externalUserId: spec.externalUserId, requestId };
  }
}
