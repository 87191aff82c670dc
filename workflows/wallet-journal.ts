/**
 * The wallet-creation journal kept by the workflow that owns a wallet (end-user/<id>, account-setup). Pure rules,
 * workflow-safe: no I/O, no Temporal calls, so unit tests exercise them directly.
 *
 * The operator's CreateWallet has no idempotency key and no lookup by label. So the creation activity writes a
 * request into this journal (a durable signal) before it sends CreateWallet, and the operator's answer after it
 * arrives. Whatever instant a worker dies at, every wallet the operator may hold for the label is then either the
 * wallet shown, a recorded orphan (its answer arrived: we know its ID), or an unanswered request (sent, answer
 * lost: an orphan whose ID cannot be learnt through the spec). Nothing the operator may have created goes
 * unrecorded.
 */
import type { AccountWalletRole } from '../src/domain/vocabulary';

/** A wallet the operator created for this user that is not the one shown (see docs/architecture.md). */
export interface OrphanWallet {
  walletId: string;
  recordedAt: string;
  reason: string;
}

/** The operator's answer to a CreateWallet request, journaled by the creation activity (the walletCreated signal). */
export interface WalletCreatedSignal {
  walletId: string;
  externalUserId: string;
  attempt: number;
  /** Set by the account setup's wallet creation: which account wallet this is. */
  role?: AccountWalletRole;
  /** Earlier attempts that sent CreateWallet and never got a usable answer: the operator may hold a wallet we never saw. */
  unconfirmedAttempts?: number[];
  /** The journaled request this answers (a WalletCreationRequest); absent in older journals. */
  requestId?: string;
}

/** A CreateWallet request whose answer never arrived (crash, timeout, 5xx): a possible orphan whose ID we cannot know. */
export interface UnconfirmedCreation {
  attempt: number;
  recordedAt: string;
  /** The journaled CreateWallet request without an answer; absent for entries of the older heartbeat-based journal. */
  requestId?: string;
}

/** A CreateWallet request, journaled by the creation activity before it is sent. */
export interface WalletCreationRequest {
  /** Unique per activity attempt: `<run>/<activity>#<attempt>`. */
  requestId: string;
  attempt: number;
  requestedAt: string;
  /** Set once the operator's answer is journaled (or the activity returned it). */
  answeredWalletId?: string;
}

/** What the creation activity sends before CreateWallet (the signal's argument). */
export interface WalletCreationRequestSignal {
  requestId: string;
  attempt: number;
  externalUserId: string;
  /** The account setup's wallet role; absent for an end user's deposit wallet. */
  role?: AccountWalletRole;
}

/** Adds a request once (a redelivered signal changes nothing). */
export function withRequest(
  requests: readonly WalletCreationRequest[],
  request: { requestId: string; attempt: number },
  now: string,
): WalletCreationRequest[] {
  if (requests.some((entry) => entry.requestId === request.requestId)) return [...requests];
  return [...requests, { requestId: request.requestId, attempt: request.attempt, requestedAt: now }];
}

/** Marks the request that produced `walletId` as answered. An answer for an unknown request is recorded as one. */
export function withAnswer(
  requests: readonly WalletCreationRequest[],
  answer: { requestId?: string; attempt: number; walletId: string },
  now: string,
): WalletCreationRequest[] {
  if (!answer.requestId) return [...requests];
  const known = requests.some((entry) => entry.requestId === answer.requestId);
  const all = known
    ? [...requests]
    : withRequest(requests, { requestId: answer.requestId, attempt: answer.attempt }, now);
  return all.map((entry) =>
    entry.requestId === answer.requestId && !entry.answeredWalletId
      ? { ...entry, answeredWalletId: answer.walletId }
      : entry,
  );
}

/**
 * Requests that reached (or may have reached) the operator without an answer we kept. While a creation is in
 * flight its newest request is still waiting for its answer and is not counted yet.
 */
export function unansweredRequests(
  requests: readonly WalletCreationRequest[],
  creationInFlight: boolean,
): WalletCreationRequest[] {
  const last = requests[requests.length - 1];
  return requests.filter((entry) => !entry.answeredWalletId && !(creationInFlight && entry === last));
}

/**
 * The unconfirmed creations to show: entries recorded without a request ID (from an older journal format) are
 * kept, and every unanswered request is listed.
 */
export function unconfirmedCreations(
  recorded: readonly UnconfirmedCreation[] | undefined,
  requests: readonly WalletCreationRequest[],
  creationInFlight: boolean,
): UnconfirmedCreation[] {
  const legacy = (recorded ?? []).filter((entry) => entry.requestId === undefined);
  const pending = unansweredRequests(requests, creationInFlight).map((entry) => ({
    attempt: entry.attempt,
    requestId: entry.requestId,
    recordedAt: entry.requestedAt,
  }));
  return [...legacy, ...pending];
}

/** Every wallet the operator may hold for the label besides the one shown. */
export function extraWalletCount(
  orphans: readonly OrphanWallet[],
  unconfirmed: readonly UnconfirmedCreation[] | undefined,
): number {
  return orphans.length + (unconfirmed?.length ?? 0);
}
