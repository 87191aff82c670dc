/**
 * The wallet journal as the owner workflow's history holds it: a creation reads it there, before it creates, for an
 * answer a previous attempt journaled or a request that may still be in flight, waiting for the owner's running
 * workflow task and for such a request within its time budget (time-budget.ts).
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import type { AccountWalletRole } from '../../src/domain/vocabulary';
import { deadlineClockMs } from '../../src/operator/deadline-clock';
import { decodedPayloads } from '../../src/temporal/data-converter';
import { optionalTsToMs } from '../../src/temporal/sdk-internals';
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

/**
 * How long a retry waits before it looks at the owner again (for its running workflow task to end, or for an answer
 * to arrive): at first this long, then twice as long each time, up to a share of the attempt's start-to-close. After
 * an outage many users' retries may wait at once, and each look is a describe and a read of the whole history.
 */
const JOURNAL_FIRST_POLL_MS = 200;
const JOURNAL_POLL_MAX_SHARE = 0.05;

/** The waits between one attempt's looks at the owner, in turn. */
export function journalPolls(startToCloseTimeoutMs: number): () => number {
  const mostMs = Math.max(JOURNAL_FIRST_POLL_MS, startToCloseTimeoutMs * JOURNAL_POLL_MAX_SHARE);
  let nextMs = JOURNAL_FIRST_POLL_MS;
  return () => {
    const waitMs = nextMs;
    nextMs = Math.min(mostMs, nextMs * 2);
    return waitMs;
  };
}

const { PendingWorkflowTaskState } = proto.api.enums.v1;

export type OwnerHandle = ReturnType<Client['workflow']['getHandle']>;

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
    const [message] = (await decodedPayloads(
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
export interface JournalTiming {
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
export async function journaledAnswer(
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
