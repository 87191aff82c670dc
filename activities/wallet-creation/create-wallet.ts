/**
 * Creating a wallet once per journal, for the end user's deposit wallet and the account's master and gas wallets
 * alike: the request is journaled into the owner workflow before CreateWallet is sent, the answer right after, and
 * a retried attempt returns the journaled answer (workflows/wallet-creation/journal.ts keeps the rules). This file is
 * the attempt; its time budget is time-budget.ts, its read of the journal from the owner's history journal-read.ts.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { type AccountWalletRole, NETWORKS } from '../../src/domain/vocabulary';
import { deadlineClockMs } from '../../src/operator/deadline-clock';
import { notCarriedOut } from '../../src/operator/errors';
import {
  walletCreatedSignal,
  walletCreationNotSentSignal,
  walletCreationRequestedSignal,
} from '../../workflows/wallet-creation/messages';
import type { ActivityDeps } from '../deps';
import { cancellable } from '../shared/cancellable';
import { callOperator } from '../shared/operator-failure';
import { journaledAnswer, type JournalTiming, journalPolls, type OwnerHandle } from './journal-read';
import {
  ANSWER_SHARE,
  assertTimeToCreate,
  assertTimeToSend,
  createDeadlineMs,
  heartbeatThroughout,
  journalDeadlineMs,
  journalInTime,
} from './time-budget';

export interface JournaledWallet {
  walletId: string;
  externalUserId: string;
  /** The journaled request that produced it. */
  requestId: string;
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
  /** From the owner's journal: an earlier activity's request may be in flight until then (server epoch ms). */
  earlierRequestsOpenUntilMs?: number | undefined;
}

/**
 * Creates a wallet once per journal: a retried attempt returns the answer a previous attempt journaled; otherwise
 * the request is journaled (a durable signal to the owner) BEFORE CreateWallet is sent, and the answer right after
 * it arrives. A crash between the two leaves an unanswered request on record; no instant leaves nothing.
 */
export async function createWalletJournaled(
  deps: WalletCreationDeps,
  spec: JournaledCreation,
): Promise<JournaledWallet> {
  const attempt = new CreationAttempt(deps, spec);
  const stopHeartbeats = heartbeatThroughout(() => attempt.progress);
  try {
    // A retry, or a new activity after one that may have left a request in flight, reads the journal first.
    const journaled = await attempt.previousAnswer();
    if (journaled) return journaled;
    return await attempt.create();
  } finally {
    stopHeartbeats();
  }
}

/** One attempt of the creation activity, its clocks started when it began. */
class CreationAttempt {
  /** What the heartbeats say. */
  progress: Record<string, unknown>;
  private readonly info = Context.current().info;
  private readonly attempt = this.info.attempt;
  private readonly startedAtMs = deadlineClockMs();
  private readonly startedMonotonicMs = performance.now();
  private readonly owner: OwnerHandle;

  constructor(
    private readonly deps: WalletCreationDeps,
    private readonly spec: JournaledCreation,
  ) {
    this.owner = deps.temporal.workflow.getHandle(spec.workflowId);
    this.progress = { phase: 'journal', attempt: this.attempt };
  }

  /** The wallet a previous attempt journaled, on a retry or after an earlier request that may be in flight. */
  async previousAnswer(): Promise<JournaledWallet | null> {
    const { deps, spec, info } = this;
    if (this.attempt === 1 && spec.earlierRequestsOpenUntilMs === undefined) return null;
    const run = deps.temporal.workflow.getHandle(spec.workflowId, info.workflowExecution?.runId);
    const timing: JournalTiming = {
      giveUpAtMs: journalDeadlineMs(this.startedAtMs),
      nextPollMs: journalPolls(info.startToCloseTimeoutMs),
      answerGraceMs: info.startToCloseTimeoutMs * ANSWER_SHARE,
      // This attempt's scheduled time is the server's, as are the journal's event times. The time since is
      // counted on the monotonic count alone: a wall clock that jumps forward must not close a window early.
      serverNowMs: () =>
        info.currentAttemptScheduledTimestampMs + (performance.now() - this.startedMonotonicMs),
      earlierRequestsOpenUntilMs: spec.earlierRequestsOpenUntilMs,
    };
    const journaled = await journalInTime(
      cancellable(deps.temporal, () => journaledAnswer(deps.temporal, run, spec.role, timing)),
      this.startedAtMs,
    );
    if (!journaled) return null;
    deps.logger.info(
      { ...spec.logFields, walletId: journaled.walletId, attempt: this.attempt },
      'Wallet already journaled; not creating another',
    );
    const { walletId, externalUserId, requestId } = journaled;
    return { walletId, externalUserId, requestId };
  }

  /** Journals the request, sends CreateWallet, journals the answer. */
  async create(): Promise<JournaledWallet> {
    const { operator } = this.deps;
    // Logged in before the request is journaled: a login that fails leaves no request on record, and a slow one is
    // counted by the time check below instead of delaying CreateWallet inside the window that check guards.
    await callOperator(() => operator.ensureSession());
    assertTimeToCreate(this.startedAtMs);
    const requestId = `${(this.info.workflowExecution?.runId ?? '-').slice(0, 8)}/${this.info.activityId}#${this.attempt}`;
    // One request's time at most (a re-login's second send included), and never past this attempt's share.
    const deadlineMs = Math.min(
      createDeadlineMs(this.startedAtMs),
      deadlineClockMs() + operator.requestTimeoutMs,
    );
    await this.journalRequest(requestId, deadlineMs);
    this.progress = { phase: 'creating', attempt: this.attempt };
    const wallet = await callOperator(() =>
      operator
        .createWallet(
          { networks: [NETWORKS.ethereum, NETWORKS.tron], externalUserId: this.spec.externalUserId },
          { deadlineMs },
        )
        .catch(async (error: unknown) => {
          const refusal = notCarriedOut(error, 'createWallet');
          if (refusal) await this.journalNotSent(requestId, refusal);
          throw error;
        }),
    );
    this.progress = { phase: 'created', attempt: this.attempt, walletId: wallet.id };
    Context.current().heartbeat(this.progress);
    await this.journalAnswer(wallet.id, requestId);
    this.deps.logger.info(
      { ...this.spec.logFields, walletId: wallet.id, attempt: this.attempt },
      'Wallet created',
    );
    return { walletId: wallet.id, externalUserId: this.spec.externalUserId, requestId };
  }

  /** The request goes on record before it is sent; if too little of the attempt is left after, it is not sent. */
  private async journalRequest(requestId: string, deadlineMs: number): Promise<void> {
    const { operator, temporal } = this.deps;
    try {
      await journalInTime(
        cancellable(temporal, () =>
          this.owner.signal(walletCreationRequestedSignal, {
            requestId,
            attempt: this.attempt,
            externalUserId: this.spec.externalUserId,
            // Counted from before the journal write: the server's time of the request is no earlier.
            inFlightForMs: Math.max(0, Math.ceil(deadlineMs - deadlineClockMs())),
            ...this.role(),
          }),
        ),
        this.startedAtMs,
        'the journal of the CreateWallet request',
      );
      // The journal write may have used up the attempt: a request sent now could outlive it, or be cut short.
      assertTimeToCreate(this.startedAtMs);
      assertTimeToSend(deadlineMs, operator.requestTimeoutMs);
      // A heartbeat answered that this attempt is no longer current: the next one creates, not this one.
      Context.current().cancellationSignal.throwIfAborted();
    } catch (error) {
      // Nothing is sent for this request. A journal write that did not answer in time may still land.
      await this.journalNotSent(requestId, failureType(error));
      throw error;
    }
  }

  /** The answer goes on record as soon as it arrives; the activity's result carries it too. */
  private async journalAnswer(walletId: string, requestId: string): Promise<void> {
    try {
      await this.owner.signal(walletCreatedSignal, {
        walletId,
        externalUserId: this.spec.externalUserId,
        attempt: this.attempt,
        requestId,
        ...this.role(),
      });
    } catch (error) {
      // The activity result still carries the wallet and its request ID; the journal only narrows the crash window.
      this.deps.logger.warn(
        { ...this.spec.logFields, walletId, err: error },
        'Could not journal the new wallet',
      );
    }
  }

  /**
   * Journals that a request this attempt journaled was never carried out, so that neither a retry nor the owner
   * waits for it or reports it. Best effort: without it the request stays on record as one that may have been.
   */
  private async journalNotSent(requestId: string, reason: string): Promise<void> {
    try {
      await journalInTime(
        this.owner.signal(walletCreationNotSentSignal, {
          requestId,
          attempt: this.attempt,
          externalUserId: this.spec.externalUserId,
          reason,
          ...this.role(),
        }),
        this.startedAtMs,
        'the journal of a CreateWallet request not sent',
      );
    } catch (error) {
      this.deps.logger.warn(
        { ...this.spec.logFields, requestId, attempt: this.attempt, err: error },
        'Could not journal a CreateWallet request as not sent; if it was journaled, it stays on record as possibly sent',
      );
    }
  }

  private role(): { role?: AccountWalletRole } {
    return this.spec.role ? { role: this.spec.role } : {};
  }
}

/** The type of a failure raised here (AttemptTooLate), or the name of another error (AbortError). */
function failureType(error: unknown): string {
  if (error instanceof ApplicationFailure && error.type) return error.type;
  return error instanceof Error ? error.name : 'unknown';
}
