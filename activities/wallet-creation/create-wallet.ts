/**
 * Creating a wallet once per journal, for the end user's deposit wallet and the account's master and gas wallets
 * alike: the request is journaled into the owner workflow before CreateWallet is sent, the answer right after, and
 * a retried attempt returns the journaled answer (workflows/wallet-creation/journal.ts keeps the rules).
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { temporal as proto } from '@temporalio/proto';
import { type AccountWalletRole, NETWORKS } from '../../src/domain/vocabulary';
import { deadlineClockMs } from '../../src/operator/deadline-clock';
import { notCarriedOut } from '../../src/operator/errors';
import type {
  WalletCreatedSignal,
  WalletCreationNotSentSignal,
  WalletCreationRequestSignal,
} from '../../workflows/wallet-creation/journal';
import {
  walletCreatedSignal,
  walletCreationNotSentSignal,
  walletCreationRequestedSignal,
} from '../../workflows/wallet-creation/messages';
import type { ActivityDeps } from '../deps';
import { cancellable } from '../shared/cancellable';
import { callOperator } from '../shared/operator-failure';

/**
 * Guards of the wallet-creation activities against a "zombie" attempt: Temporal times an attempt out on the
 * server, but the activity function keeps running on the worker. An attempt that sent CreateWallet after its own
 * timeout would race the next attempt and leave an extra wallet. So an attempt reads and writes the journal within
 * a bounded part of its time, sends CreateWallet only while enough of its time is left for the answer to be
 * journaled, and heartbeats throughout so that its heartbeat timeout passes only when its worker is gone.
 * CreateWallet has a deadline, which the journaled request records; a retry, or a new activity whose owner names an
 * earlier request, waits an unanswered request out (its worker may only have stalled, and still get the answer)
 * before it creates.
 */

/** Share of start-to-close a journal read or write may take. */
const JOURNAL_SHARE = 0.4;
/** Share of start-to-close that must remain when CreateWallet is sent. */
const CREATE_MIN_REMAINING_SHARE = 0.5;
/**
 * Share of start-to-close kept after CreateWallet's deadline for journaling its answer. A retry that finds a request
 * without an answer also waits this long past the request's window for an answer still on its way.
 */
const ANSWER_SHARE = 0.1;

/** When (deadline clock) this attempt stops sending CreateWallet and abandons one in flight. */
function createDeadlineMs(startedAtMs: number): number {
  return startedAtMs + Context.current().info.startToCloseTimeoutMs * (1 - ANSWER_SHARE);
}

/**
 * Milliseconds left in this attempt. `startedAtMs` is when the activity function began, on the deadline clock (no
 * wall-clock step moves it): the server starts the start-to-close clock a moment earlier (dispatch to this worker),
 * a difference of milliseconds.
 */
function attemptTimeLeftMs(startedAtMs: number): number {
  return startedAtMs + Context.current().info.startToCloseTimeoutMs - deadlineClockMs();
}

/** When a journal read or write started now must have answered: within its share, and within the attempt. */
function journalDeadlineMs(startedAtMs: number): number {
  const now = deadlineClockMs();
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
  const budgetMs = Math.max(0, journalDeadlineMs(startedAtMs) - deadlineClockMs());
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

/**
 * Throws (retryable, nothing sent) when CreateWallet would have less than half the time it could ever get (one
 * request timeout, or 90 % of the attempt): a request cut short may still be carried out, its answer lost.
 */
function assertTimeToSend(deadlineMs: number, requestTimeoutMs: number): void {
  const left = deadlineMs - deadlineClockMs();
  const most = Math.min(requestTimeoutMs, Context.current().info.startToCloseTimeoutMs * (1 - ANSWER_SHARE));
  if (left < most / 2) {
    throw ApplicationFailure.retryable(
      `only ${Math.round(left)} ms left before CreateWallet's deadline: not sending it; the next attempt will`,
      'AttemptTooLate',
    );
  }
}

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
 * How long a retry waits before it looks at the owner again (for its running workflow task to end, or for an answer
 * to arrive): at first this long, then twice as long each time, up to a share of the attempt's start-to-close. After
 * an outage many users' retries may wait at once, and each look is a describe and a read of the whole history.
 */
const JOURNAL_FIRST_POLL_MS = 200;
const JOURNAL_POLL_MAX_SHARE = 0.05;

/** The waits between one attempt's looks at the owner, in turn. */
function journalPolls(startToCloseTimeoutMs: number): () => number {
  const mostMs = Math.max(JOURNAL_FIRST_POLL_MS, startToCloseTimeoutMs * JOURNAL_POLL_MAX_SHARE);
  let nextMs = JOURNAL_FIRST_POLL_MS;
  return () => {
    const waitMs = nextMs;
    nextMs = Math.min(mostMs, nextMs * 2);
    return waitMs;
  };
}

const { PendingWorkflowTaskState } = proto.api.enums.v1;

type OwnerHandle = ReturnType<Client['workflow']['getHandle']>;

/**
 * Resolves once none of the owner's workflow tasks is running. A signal that arrives while one runs is held back
 * from the history until that task ends (completed, failed, or timed out when its worker died), so a journal read
 * before then could miss an answer. Past `giveUpAtMs` the attempt fails and creates nothing.
 */
async function ownerTaskEnded(handle: OwnerHandle, timing: JournalTiming): Promise<void> {
  for (;;) {
    if (!(await ownerTaskRunning(handle))) return;
    const waitMs = nextWait(timing);
    if (waitMs === undefined)
      throw ApplicationFailure.retryable(
        `a workflow task of ${handle.workflowId} is still running, which may hold back a journaled answer; nothing created`,
        'JournalUnavailable',
      );
    await sleep(waitMs);
  }
}

async function ownerTaskRunning(handle: OwnerHandle): Promise<boolean> {
  const { raw } = await handle.describe();
  return raw.pendingWorkflowTask?.state === PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED;
}

/** The journal as the owner's history holds it, for one wallet (for an account wallet: of that role). */
interface JournalRead {
  /** The first answer journaled. */
  answer: WalletCreatedSignal | null;
  /**
   * Server time (epoch ms) until which a journaled request may be in flight at the operator; none (or each one
   * journaled as not sent): undefined.
   */
  requestOpenUntilMs?: number | undefined;
}

async function readJournal(
  temporal: Client,
  handle: OwnerHandle,
  role: AccountWalletRole | undefined,
): Promise<JournalRead> {
  const history = await handle.fetchHistory();
  /** Until when each journaled request may be in flight, by request ID. */
  const openUntil = new Map<string, number>();
  const notSent = new Set<string>();
  for (const event of history.events ?? []) {
    const signaled = event.workflowExecutionSignaledEventAttributes;
    const name = signaled?.signalName;
    if (!name || !JOURNAL_SIGNALS.has(name)) continue;
    const [message] = (await decodeArrayFromPayloads(
      temporal.workflow.options.loadedDataConverter,
      signaled?.input?.payloads,
    )) as [(WalletCreatedSignal | WalletCreationRequestSignal | WalletCreationNotSentSignal) | undefined];
    if (!message || (role !== undefined && message.role !== role)) continue;
    if (name === walletCreatedSignal.name) return { answer: message as WalletCreatedSignal };
    const { requestId } = message as WalletCreationRequestSignal | WalletCreationNotSentSignal;
    if (name === walletCreationNotSentSignal.name) {
      notSent.add(requestId);
      continue;
    }
    const { inFlightForMs } = message as WalletCreationRequestSignal;
    const journaledAtMs = optionalTsToMs(event.eventTime);
    if (journaledAtMs !== undefined)
      openUntil.set(requestId, Math.max(openUntil.get(requestId) ?? 0, journaledAtMs + inFlightForMs));
  }
  const open = [...openUntil].filter(([requestId]) => !notSent.has(requestId)).map(([, until]) => until);
  return { answer: null, requestOpenUntilMs: open.length > 0 ? Math.max(...open) : undefined };
}

const JOURNAL_SIGNALS: ReadonlySet<string> = new Set([
  walletCreatedSignal.name,
  walletCreationRequestedSignal.name,
  walletCreationNotSentSignal.name,
]);

/** When and how a creation reads the journal before it creates. */
interface JournalTiming {
  giveUpAtMs: number;
  /** The wait before the next look at the owner. */
  nextPollMs: () => number;
  answerGraceMs: number;
  serverNowMs: () => number;
  /** An earlier activity's request, from the owner's state (it may be in an earlier run's history). */
  earlierRequestsOpenUntilMs: number | undefined;
}

/**
 * The first answer journaled into the owner's run (for an account wallet: of that role), or null once no journaled
 * request can still be answered. Read from the run's history: no worker has to process anything (after a crash the
 * owner's workflow task may wait for the dead worker's sticky queue), and no update slot is taken (the client's
 * waiting `ensureDepositWallet` updates may hold them all). A request that may still be in flight (its attempt was
 * timed out, but its worker may be alive and get the answer) is waited for: creating beside it would make a second
 * wallet. A read during which one of the owner's tasks started is taken again, as that task may hold an answer back.
 * Gives up at `giveUpAtMs`, creating nothing. The owner cannot continue as new while it waits for this activity, so
 * this activity's own requests are in this run.
 */
async function journaledAnswer(
  temporal: Client,
  handle: OwnerHandle,
  role: AccountWalletRole | undefined,
  timing: JournalTiming,
): Promise<WalletCreatedSignal | null> {
  for (;;) {
    await ownerTaskEnded(handle, timing);
    const journal = await readJournal(temporal, handle, role);
    if (journal.answer) return journal.answer;
    if (await ownerTaskRunning(handle)) continue;
    const openUntil = [journal.requestOpenUntilMs, timing.earlierRequestsOpenUntilMs].filter(
      (until): until is number => until !== undefined,
    );
    if (openUntil.length === 0) return null;
    const openForMs = Math.max(...openUntil) + timing.answerGraceMs - timing.serverNowMs();
    if (openForMs <= 0) return null;
    const waitMs = nextWait(timing, openForMs);
    if (waitMs === undefined)
      throw ApplicationFailure.retryable(
        `a CreateWallet request of ${handle.workflowId} may be in flight for ${Math.ceil(openForMs)} ms more; nothing created`,
        'RequestMayBeInFlight',
      );
    await sleep(waitMs);
  }
}

/**
 * The wait before the next look at the owner, never past `openForMs` (when the awaited window closes) or the budget;
 * undefined once the budget cannot hold even a first look's wait.
 */
function nextWait(timing: JournalTiming, openForMs = Infinity): number | undefined {
  const leftMs = timing.giveUpAtMs - deadlineClockMs();
  if (leftMs < Math.min(openForMs, JOURNAL_FIRST_POLL_MS)) return undefined;
  return Math.min(openForMs, timing.nextPollMs(), leftMs);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
