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
import { depositWalletLabel } from '../../src/domain/ids';
import type { AccountWalletRole } from '../../src/domain/vocabulary';
import type { AlertInput } from '../operations/alerts/types';

/** A wallet the operator created for this owner that is not the one shown (see docs/architecture.md). */
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
  /** The journaled request this answers (a WalletCreationRequest). */
  requestId: string;
}

/** A CreateWallet request whose answer never arrived (crash, timeout, 5xx): a possible orphan whose ID we cannot know. */
export interface UnconfirmedCreation {
  attempt: number;
  recordedAt: string;
  /** The journaled CreateWallet request without an answer. */
  requestId: string;
}

/** A CreateWallet request, journaled by the creation activity before it is sent. */
export interface WalletCreationRequest {
  /** Unique per activity attempt: `<run>/<activity>#<attempt>`. */
  requestId: string;
  attempt: number;
  requestedAt: string;
  /** Set once the operator's answer is journaled (or the activity returned it). */
  answeredWalletId?: string;
  /**
   * How long after it was journaled the request may be in flight (WalletCreationRequestSignal); absent when its
   * answer or its not-sent signal overtook the request itself.
   */
  inFlightForMs?: number;
  /** Set when its attempt journaled that it never sent it (walletCreationNotSent): no wallet can come of it. */
  notSent?: true;
}

/** What the creation activity sends before CreateWallet (the signal's argument). */
export interface WalletCreationRequestSignal {
  requestId: string;
  attempt: number;
  externalUserId: string;
  /** The account setup's wallet role; absent for an end user's deposit wallet. */
  role?: AccountWalletRole;
  /**
   * How long after it is journaled this request may still be in flight: its attempt sends nothing and abandons the
   * call past that. A retry that finds no answer waits this out before it creates.
   */
  inFlightForMs: number;
}

/**
 * What the creation activity journals when it had journaled a request and then sent nothing the operator carried
 * out (the journal write did not answer in time, too little of its attempt was left, or CreateWallet failed in a way
 * src/operator/errors.ts `notCarriedOut` recognises): the operator cannot hold a wallet for that request, so nobody
 * waits for it or reports it.
 */
export interface WalletCreationNotSentSignal {
  requestId: string;
  attempt: number;
  externalUserId: string;
  /** The account setup's wallet role; absent for an end user's deposit wallet. */
  role?: AccountWalletRole;
  /** Why it was not sent, for someone reading the history (never a secret). */
  reason: string;
}

/** Adds a request once (a redelivered signal changes nothing). */
export function withRequest(
  requests: readonly WalletCreationRequest[],
  request: { requestId: string; attempt: number; inFlightForMs?: number },
  now: string,
): WalletCreationRequest[] {
  if (requests.some((entry) => entry.requestId === request.requestId)) return [...requests];
  const { requestId, attempt, inFlightForMs } = request;
  return [
    ...requests,
    { requestId, attempt, requestedAt: now, ...(inFlightForMs === undefined ? {} : { inFlightForMs }) },
  ];
}

/**
 * When (epoch ms) the last unanswered request may stop being in flight, for a new creation activity to wait for
 * (a retried attempt reads the history itself). `requestedAt` is the owner's task time, no earlier than the
 * request's own: the wait errs long. Undefined when no unanswered request says how long it may be in flight.
 */
export function unansweredRequestsOpenUntilMs(
  requests: readonly WalletCreationRequest[],
): number | undefined {
  let until: number | undefined;
  for (const entry of requests) {
    if (entry.answeredWalletId || entry.notSent || entry.inFlightForMs === undefined) continue;
    until = Math.max(until ?? 0, Date.parse(entry.requestedAt) + entry.inFlightForMs);
  }
  return until;
}

/** Marks the request that produced `walletId` as answered. An answer for an unknown request is recorded as one. */
export function withAnswer(
  requests: readonly WalletCreationRequest[],
  answer: { requestId: string; attempt: number; walletId: string },
  now: string,
): WalletCreationRequest[] {
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
 * Marks a request as never sent. One whose request signal has not arrived yet (the two signals may overtake each
 * other) is recorded as a request that was not sent, and its request signal then changes nothing.
 */
export function withNotSent(
  requests: readonly WalletCreationRequest[],
  notSent: { requestId: string; attempt: number },
  now: string,
): WalletCreationRequest[] {
  return withRequest(requests, notSent, now).map((entry) =>
    entry.requestId === notSent.requestId && !entry.answeredWalletId ? { ...entry, notSent: true } : entry,
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
  return requests.filter(
    (entry) => !entry.answeredWalletId && !entry.notSent && !(creationInFlight && entry === last),
  );
}

/** The unconfirmed creations to show: every unanswered request. */
export function unconfirmedCreations(
  requests: readonly WalletCreationRequest[],
  creationInFlight: boolean,
): UnconfirmedCreation[] {
  return unansweredRequests(requests, creationInFlight).map((entry) => ({
    attempt: entry.attempt,
    requestId: entry.requestId,
    recordedAt: entry.requestedAt,
  }));
}

/** Every wallet the operator may hold for the label besides the one shown. */
export function extraWalletCount(
  orphans: readonly OrphanWallet[],
  unconfirmed: readonly UnconfirmedCreation[],
): number {
  return orphans.length + unconfirmed.length;
}

// ------------------------------------------------------------------------------------------- the owners' handlers

/**
 * One wallet's journal as its owner keeps it (the end user's deposit wallet, each of the account's wallet roles):
 * carried over continue-as-new and answered by the owner's query.
 */
export interface WalletJournal {
  /** Every CreateWallet request, journaled before it was sent. */
  requests: WalletCreationRequest[];
  /** Requests that may have reached the operator without an answer: possible orphans whose ID cannot be known. */
  unconfirmed: UnconfirmedCreation[];
  /** The first answer journaled: the wallet the operator created first. */
  journaled?: WalletCreatedSignal;
}

export const newWalletJournal = (): WalletJournal => ({ requests: [], unconfirmed: [] });

/** Lists the requests sent without an answer (possible orphans whose ID cannot be known). */
export function refreshUnconfirmed(journal: WalletJournal, creationInFlight: boolean): void {
  journal.unconfirmed = unconfirmedCreations(journal.requests, creationInFlight);
}

/** What a creation activity is told of earlier requests that may still be in flight (part of its input). */
export interface EarlierRequests {
  /** Epoch ms (server time) until which an earlier unanswered request may be in flight: waited out first. */
  earlierRequestsOpenUntilMs?: number;
}

/** The input field for a new creation activity; empty (the input unchanged) when no request is to be waited for. */
export function earlierRequestsInput(journal: WalletJournal): EarlierRequests {
  const until = unansweredRequestsOpenUntilMs(journal.requests);
  return until === undefined ? {} : { earlierRequestsOpenUntilMs: until };
}

/** The walletCreationRequested signal: the request is on record (once) before CreateWallet is sent. */
export function journalRequest(
  journal: WalletJournal,
  request: { requestId: string; attempt: number; inFlightForMs: number },
  creationInFlight: boolean,
  now: string,
): void {
  journal.requests = withRequest(journal.requests, request, now);
  refreshUnconfirmed(journal, creationInFlight);
}

/** The walletCreationNotSent signal: the request is settled, with no wallet that can come of it. */
export function journalNotSent(
  journal: WalletJournal,
  notSent: { requestId: string; attempt: number },
  creationInFlight: boolean,
  now: string,
): void {
  journal.requests = withNotSent(journal.requests, notSent, now);
  refreshUnconfirmed(journal, creationInFlight);
}

/**
 * The walletCreated signal: the answer settles its request and the first answer becomes the journaled wallet.
 * Answers the wallet ID of a later answer that names another wallet: an orphan for the owner to record.
 */
export function journalAnswer(
  journal: WalletJournal,
  created: WalletCreatedSignal,
  creationInFlight: boolean,
  now: string,
): string | undefined {
  journal.requests = withAnswer(journal.requests, created, now);
  let orphanWalletId: string | undefined;
  if (!journal.journaled) journal.journaled = created;
  else if (journal.journaled.walletId !== created.walletId) orphanWalletId = created.walletId;
  refreshUnconfirmed(journal, creationInFlight);
  return orphanWalletId;
}

/** The creation activity's own answer settles its request, even when its journal signal was lost. */
export function settleActivityAnswer(
  journal: WalletJournal,
  created: { walletId: string; requestId: string },
  now: string,
): void {
  journal.requests = withAnswer(journal.requests, { ...created, attempt: 0 }, now);
}

/**
 * The wallet to keep once the creation activity answered: the journaled one (the operator created it first; its
 * journal may have arrived while the activity ran). The activity's answer, when it names another, is an orphan.
 */
export function chooseWallet<W extends { walletId: string }>(
  journaled: W | undefined,
  created: W,
): { chosen: W; orphanWalletId?: string } {
  const chosen = journaled ?? created;
  return created.walletId === chosen.walletId ? { chosen } : { chosen, orphanWalletId: created.walletId };
}

/** The addresses the creating activity read, when they are the kept wallet's; otherwise they must be read. */
export function addressesOf<A>(
  created: { walletId: string; addresses?: readonly A[] },
  keptWalletId: string,
): readonly A[] | undefined {
  return created.walletId === keptWalletId ? created.addresses : undefined;
}

/** Records a wallet that is not shown, once; never the wallet shown. True when it is new (the owner logs it). */
export function recordOrphan<O extends OrphanWallet>(
  orphans: O[],
  shownWalletId: string | undefined,
  orphan: O,
): boolean {
  if (shownWalletId === orphan.walletId || orphans.some((entry) => entry.walletId === orphan.walletId))
    return false;
  orphans.push(orphan);
  return true;
}

/**
 * How many extra wallets count as reported once a request has turned out not sent (its signal may land after the
 * incident that counted it): never more than are known now, so that the next wallet that may exist is raised
 * again instead of hiding under a count that went down.
 */
export const reportedAfterNotSent = (count: number, reported: number): number => Math.min(reported, count);

/** An incident is due when more extra wallets are known than the last one reported. */
export const extraWalletsDue = (count: number, reported: number): boolean => count > reported;

/** Whose wallets the extra-wallet incident is about: an end user's deposit wallet, or the account's wallets. */
export type ExtraWalletOwner =
  { kind: 'end-user'; endUserId: string; shownWalletId: string | undefined } | { kind: 'account' };

/** The extra-wallet incident: every wallet the operator may hold besides the ones shown, for operations to close. */
export function extraWalletAlert(
  owner: ExtraWalletOwner,
  workflowId: string,
  counts: { orphanWallets: number; unconfirmedCreations: number },
): AlertInput {
  const count = counts.orphanWallets + counts.unconfirmedCreations;
  if (owner.kind === 'account') {
    return {
      kind: 'extra-wallet',
      message: `The operator may hold ${count} account wallet(s) besides the master and gas wallets recorded: close them with the operator by label`,
      workflowId,
      details: { walletOwner: workflowId, ...counts },
    };
  }
  const { endUserId } = owner;
  return {
    kind: 'extra-wallet',
    message:
      `The operator may hold ${count} deposit wallet(s) for end user ${endUserId} besides the one shown ` +
      `(${counts.orphanWallets} with a known ID, ${counts.unconfirmedCreations} requested without an answer): ` +
      `close them with the operator by label ${depositWalletLabel(endUserId)}`,
    workflowId,
    details: { walletOwner: workflowId, endUserId, shownWalletId: owner.shownWalletId ?? null, ...counts },
  };
}
