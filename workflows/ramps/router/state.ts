/** Pure rules of the webhook router. Workflow-safe: no I/O, no Temporal calls. */
import { type KNOWN_EVENT_TYPES, type ResourceKind, TRANSACTION_KINDS } from '../../../src/domain/vocabulary';
import type { OffRampRole } from '../offramp/types';
import { orderRank, transactionRank, type TransactionSnapshot } from '../shared/snapshots';
import type { AlertInput } from '../../operations/alerts/types';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { ForwardOutcome, LateEvent, RouterState, WebhookEventSignal } from './types';

/** How many events (and late events) a router keeps for people looking in. */
export const KEEP_EVENTS = 20;

/** Counts a delivery and keeps the last `keep` of them. */
export function recordEvent(state: RouterState, event: WebhookEventSignal, keep = KEEP_EVENTS): void {
  state.eventsReceived += 1;
  state.events.push(event);
  if (state.events.length > keep) state.events.shift();
}

/**
 * A re-read status already forwarded changes nothing: the batch counts as duplicates. Otherwise the status is
 * remembered as the last one forwarded.
 */
export function isDuplicate(state: RouterState, status: string, batchSize: number): boolean {
  if (status === state.lastStatus) {
    state.duplicates += batchSize;
    return true;
  }
  state.lastStatus = status;
  return false;
}

/** A forward's answer; histories recorded before processes ran once per ID answer the workflow ID alone. */
export function forwardOutcomeOf(answer: ForwardOutcome | string): ForwardOutcome {
  return typeof answer === 'string' ? { workflowId: answer } : answer;
}

/**
 * Records where an event went. A process that had already ended is not run again: the event is kept as late.
 * Only a process that gave up (`timed-out`) may have missed money that moved since, so only then is an alert due.
 */
export function recordForward(
  state: RouterState,
  outcome: ForwardOutcome,
  resourceStatus: string,
  at: string,
  keep = KEEP_EVENTS,
): { late?: LateEvent; raiseLateAlert: boolean } {
  if (!state.forwardedTo.includes(outcome.workflowId)) state.forwardedTo.push(outcome.workflowId);
  if (!outcome.closed) return { raiseLateAlert: false };
  const processStatus = outcome.closed.status ?? outcome.closed.executionStatus;
  const late: LateEvent = { workflowId: outcome.workflowId, processStatus, resourceStatus, at };
  const kept = (state.lateEvents ??= []);
  kept.push(late);
  if (kept.length > keep) kept.shift();
  return { late, raiseLateAlert: processStatus === 'timed-out' };
}

/** The incident for an event that came after its process gave up. */
export function lateEventAlert(
  kind: RouterState['kind'],
  resourceId: string,
  late: LateEvent,
): Omit<AlertInput, 'workflowId'> {
  return {
    kind: 'late-event-after-timeout',
    message: `${kind} ${resourceId} is now ${late.resourceStatus}, after ${late.workflowId} gave up (timed-out): settle it by hand with the operator's records`,
    details: {
      process: late.workflowId,
      resource: `${kind}/${resourceId}`,
      resourceStatus: late.resourceStatus,
    },
  };
}

/** The router's details once its inbox is empty. */
export function forwardedDetails(state: RouterState): string {
  const late = state.lateEvents?.length ? ` (${state.lateEvents.length} late: process already ended)` : '';
  return `Forwarded to ${state.forwardedTo.join(', ') || 'nobody'}${late}`;
}

/**
 * A lingering router stops lingering once its history holds this many events (about 70 hops): the next delivery
 * then starts a new run, so no router history grows without bound.
 */
export const LINGER_HISTORY_LIMIT = 1_000;

/** A resource's status rank, and the rank from which the spec's sequences send no further transition. */
function ranks(kind: ResourceKind, status: string | undefined): { rank: number; settled: number } {
  return kind === 'transaction'
    ? { rank: transactionRank(status), settled: transactionRank('confirmed') }
    : { rank: orderRank(status), settled: orderRank('executed') };
}

/** The status a created event announces (it carries none); an updated event names its `newStatus`. */
const FIRST_STATUS: Partial<Record<(typeof KNOWN_EVENT_TYPES)[number], string>> = {
  'transaction-created': 'created',
  'order-created': 'awaiting_funds',
};

const announcedStatus = (event: WebhookEventSignal): string | undefined =>
  event.newStatus ?? FIRST_STATUS[event.eventType as keyof typeof FIRST_STATUS];

/**
 * Whether another delivery for this resource is due, from what the router re-read and what the deliveries it got
 * announced (a hint, used only to decide whether to wait): the re-read status is one the sequences move on from (a
 * transaction before `confirmed`, an order before `executed`), or the operator has not yet sent the event for the
 * status re-read (its read ran ahead of its webhooks, as under load: a created event re-read as confirmed).
 */
export function moreEventsExpected(state: RouterState): boolean {
  const { rank, settled } = ranks(state.kind, state.lastStatus);
  if (rank === 0) return false;
  if (rank < settled) return true;
  const announced = Math.max(
    0,
    ...state.events.map((event) => ranks(state.kind, announcedStatus(event)).rank),
  );
  return announced < rank;
}

/**
 * How long a router whose inbox is empty waits for its resource's next delivery before it ends (that delivery is
 * then a signal to this run instead of a new run); 0: it ends now. Only while another event is expected.
 */
export function lingerMs(timings: WorkflowTimings, state: RouterState, historyLength: number): number {
  const linger = timings.routerLingerMs ?? 0;
  if (linger <= 0 || historyLength >= LINGER_HISTORY_LIMIT) return 0;
  return moreEventsExpected(state) ? linger : 0;
}

/** The router's details while it waits for another delivery. */
export function lingeringDetails(state: RouterState, waitMs: number): string {
  return `${forwardedDetails(state)}; open for another delivery for ${Math.round(waitMs / 1000)} s`;
}

/** ASSUMED not sent: the off-ramp reads its AutoSwap order itself (through its sweep), so nothing to forward. */
export const OFF_RAMP_ORDER_UNROUTABLE = 'off-ramp order: read by its off-ramp process';

export type TransactionRoute =
  | { kind: 'offramp'; depositTransactionId: string; role: OffRampRole }
  | { kind: 'onramp-order'; orderId: string }
  | { kind: 'unroutable'; reason: string };

/**
 * Where a transaction belongs, from its re-read details:
 * - a Deposit that carries an orderId is the on-ramp's crypto deposit to the master wallet (the order names its reference);
 * - any other Deposit starts (and keys) an off-ramp;
 * - a gas top-up, a sweep or an AutoSwap order transaction points at its deposit through relatedTransactionId.
 */
export function routeTransaction(tx: TransactionSnapshot): TransactionRoute {
  if (tx.type === TRANSACTION_KINDS.deposit.type) {
    if (tx.orderId) return { kind: 'onramp-order', orderId: tx.orderId };
    return { kind: 'offramp', depositTransactionId: tx.id, role: 'deposit' };
  }
  const role: OffRampRole | undefined =
    tx.type === TRANSACTION_KINDS.gasTopUp.type
      ? 'gasTopUp'
      : tx.type === TRANSACTION_KINDS.sweep.type
        ? 'sweep'
        : tx.type === TRANSACTION_KINDS.orderSettlement.type
          ? 'orderTransaction'
          : undefined;
  if (!role) return { kind: 'unroutable', reason: `transaction type ${tx.type} belongs to no ramp process` };
  if (!tx.relatedTransactionId)
    return { kind: 'unroutable', reason: `${tx.type} transaction has no relatedTransactionId` };
  return { kind: 'offramp', depositTransactionId: tx.relatedTransactionId, role };
}
