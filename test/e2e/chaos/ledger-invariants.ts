/**
 * The chaos suite's rules over the ledger (the product's PostgreSQL), as pure functions over what it reads once the
 * run has settled: the rows (SQL), what Temporal says each process ended with (a ramp's run result, an end user's
 * query), the operator's own records (its API, over HTTP) and every delivery the stand-in client endpoint received.
 * Kept apart from the run so each rule can be made to fail on hand-made inputs (ledger-invariants.test.ts).
 *
 * The primary keys make two rows of one process impossible, so the rules look for what can go wrong instead: a
 * process without its row, a row left behind the process's last write, an ended ramp without its booked row, a row
 * of a process nobody started, one operator resource booked twice, a booked row that differs from the operator, an
 * event the client got that the ledger lacks, an event the ledger holds that never reached the client.
 */
import { isDeepStrictEqual } from 'node:util';
import { compareDecimals, DECIMAL_PATTERN, parseAmount, formatAmount } from '../../../src/domain/decimal';
import { endUserView } from '../../../src/ledger/end-users';
import { resourceKey } from '../../../src/ledger/reconciliation';
import { type BookedResource, bookedRow, type RampState, rampView } from '../../../src/ledger/ramp-views';
import type { BookedRow } from '../../../src/ledger/views';
import type { EndUserState } from '../../../workflows/end-user/types';

/** What the ledger rules found, by kind: each finding is one line naming its process. */
export interface LedgerFindings {
  /** A process, booking or event without its row; an event the client never got. */
  lostRows: string[];
  /** A row that is not what its process last wrote, or that disagrees with Temporal or with the client's copy. */
  staleRows: string[];
  /** A row of a process nobody started, or one operator resource booked by two ramps. */
  duplicateRows: string[];
  /** A booked row whose IDs, status or amounts differ from the operator's records. */
  bookingMismatches: string[];
}

export const noLedgerFindings = (): LedgerFindings => ({
  lostRows: [],
  staleRows: [],
  duplicateRows: [],
  bookingMismatches: [],
});

// ------------------------------------------------------------------------------------------------ rows as read

export interface RampRow {
  workflowId: string;
  status: string;
  revision: number;
  view: unknown;
  updatedAt: string;
  endedAt: string | null;
}

export interface BookingRow {
  workflowId: string;
  status: string;
  row: BookedRow;
  resources: BookedResource[];
}

export interface EndUserRow {
  endUserId: string;
  workflowId: string;
  walletId: string | null;
  revision: number;
  view: unknown;
  updatedAt: string;
}

export interface EventRow {
  webhookId: string;
  processId: string;
  sequence: number;
  delivery: string;
  error: string | null;
  body: unknown;
}

/** One delivery the stand-in client endpoint received. */
export interface EndpointDelivery {
  webhookId: string;
  /** The raw body, as it arrived. */
  body: string;
  /** Whether its Standard Webhooks signature verified. */
  verified: boolean;
  /** The status it answered; undefined when the sender gave up on the answer first. */
  answered?: number | undefined;
  receivedAt: number;
}

const confirmedBy = (delivery: EndpointDelivery) =>
  delivery.answered !== undefined && delivery.answered >= 200 && delivery.answered < 300;

/** A value as it reads back from a JSON column: undefined members gone. */
const asStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** The top-level members in which two objects differ. */
function differingKeys(ours: unknown, expected: unknown): string[] {
  if (typeof ours !== 'object' || ours === null || typeof expected !== 'object' || expected === null)
    return isDeepStrictEqual(ours, expected) ? [] : ['(the whole value)'];
  const a = ours as Record<string, unknown>;
  const b = expected as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => !isDeepStrictEqual(a[key], b[key]))
    .sort();
}

const describeDifference = (ours: unknown, expected: unknown, keys: readonly string[], label = 'expected') =>
  keys
    .map((key) => {
      const read = (value: unknown) =>
        JSON.stringify((value as Record<string, unknown> | null)?.[key]) ?? 'absent';
      return `${key} ${read(ours)} (${label} ${read(expected)})`;
    })
    .join(', ');

// ------------------------------------------------------------------------------------------------ ramps

/**
 * What Temporal says of a ramp: the state its run ended with and the state its last ledger write carried (its
 * history's last recordRamp; none when it never wrote), or that it has not ended.
 */
export type RampInTemporal =
  { ended: true; ramp: RampState; lastWrite: RampState | undefined } | { ended: false };

/**
 * Every ramp the client started or the operator saw has its row; an ended ramp's row is exactly what its run's
 * last write wrote (the status and revision it ended with, the view of the state that write carried) and it has its
 * booked row, as that state books it with its events in order; a running ramp's row is not ended; no row is of a
 * ramp nobody started, and no operator order or deposit is booked by two ramps. An ended off-ramp's gas may be ahead
 * of that write when it is what the operator charged (a top-up's event that came after the run ended, booked by the
 * routers' hop). Apart: ramps whose end state differs from what their last write carried (a snapshot applied while
 * that write ran, on a version before the ramp wrote again for it), and the gas booked after a ramp ended.
 */
export function checkRampRows(input: {
  /** Every ramp that must have a row: those the client started, those the operator ran, those Temporal lists. */
  rampIds: ReadonlySet<string>;
  temporal: ReadonlyMap<string, RampInTemporal>;
  rows: readonly RampRow[];
  bookings: readonly BookingRow[];
  /** Each process's event webhook-ids in the ledger, in sequence order. */
  eventIds: ReadonlyMap<string, readonly string[]>;
  /** What the operator charged each off-ramp for its gas top-up and sweep. */
  operatorGas: ReadonlyMap<string, OperatorRecords['gas']>;
}): { findings: LedgerFindings; afterFinalWrite: string[]; gasBookedLate: string[] } {
  const findings = noLedgerFindings();
  const afterFinalWrite: string[] = [];
  const gasBookedLate: string[] = [];
  const rows = new Map(input.rows.map((row) => [row.workflowId, row]));
  const bookings = new Map(input.bookings.map((booking) => [booking.workflowId, booking]));
  for (const workflowId of [...input.rampIds].sort()) {
    const row = rows.get(workflowId);
    const temporal = input.temporal.get(workflowId);
    if (!row) {
      findings.lostRows.push(`${workflowId}: no row in ramps`);
      continue;
    }
    if (!temporal?.ended) {
      if (row.endedAt !== null)
        findings.staleRows.push(`${workflowId}: ended in the ledger (${row.status}) while its run has not`);
      continue;
    }
    const { ramp, lastWrite: written } = temporal;
    const { state } = ramp;
    if (!written) {
      findings.lostRows.push(`${workflowId}: ended ${state.status} with no ledger write in its history`);
      continue;
    }
    const booking = bookings.get(workflowId);
    if (!booking) findings.lostRows.push(`${workflowId}: ended ${state.status} with no booked row`);
    if (row.status !== state.status || row.endedAt === null)
      findings.staleRows.push(
        `${workflowId}: row at ${row.status}${row.endedAt === null ? ', not ended' : ''}; its run ended ${state.status}`,
      );
    if (row.revision !== (state.recordedRevision ?? 0))
      findings.staleRows.push(
        `${workflowId}: row at revision ${row.revision}; its run's last write was ${state.recordedRevision ?? 0}`,
      );
    const writtenView = asStored(rampView(written, row.updatedAt));
    const lateGas = gasAheadOfRun(row.view, writtenView, input.operatorGas.get(workflowId));
    if (lateGas)
      gasBookedLate.push(
        `${workflowId}: ${describeDifference(row.view, writtenView, ['gas'], 'last written')}`,
      );
    const view = lateGas ? { ...(writtenView as object), gas: lateGas } : writtenView;
    const viewKeys = differingKeys(row.view, view);
    if (viewKeys.length > 0)
      findings.staleRows.push(
        `${workflowId}: view differs from what its last write carried: ${describeDifference(row.view, view, viewKeys)}`,
      );
    const endView = asStored(rampView(ramp, row.updatedAt));
    const laterKeys = differingKeys(writtenView, endView);
    if (laterKeys.length > 0)
      afterFinalWrite.push(
        `${workflowId}: ended with ${describeDifference(endView, writtenView, laterKeys, 'last written')}`,
      );
    if (!booking) continue;
    if (booking.status !== state.status)
      findings.staleRows.push(`${workflowId}: booked ${booking.status}; its run ended ${state.status}`);
    const writtenRow = bookedRow(written, booking.row.closedAt, [...(input.eventIds.get(workflowId) ?? [])]);
    const booked = asStored(
      lateGas
        ? { ...writtenRow, gasAsset: lateGas.total.asset, gasAmount: lateGas.total.amount }
        : writtenRow,
    );
    const bookedKeys = differingKeys(booking.row, booked);
    if (bookedKeys.length > 0)
      findings.staleRows.push(
        `${workflowId}: booked row differs from what its last write books: ${describeDifference(booking.row, booked, bookedKeys)}`,
      );
  }
  for (const row of input.rows)
    if (!input.rampIds.has(row.workflowId))
      findings.duplicateRows.push(`${row.workflowId}: a ramps row of a ramp nobody started`);
  for (const booking of input.bookings)
    if (!input.rampIds.has(booking.workflowId))
      findings.duplicateRows.push(`${booking.workflowId}: a booked row of a ramp nobody started`);
  const bookedBy = new Map<string, string[]>();
  for (const booking of input.bookings)
    for (const resource of booking.resources) {
      const key = resourceKey(resource);
      bookedBy.set(key, [...(bookedBy.get(key) ?? []), booking.workflowId]);
    }
  for (const [key, workflowIds] of bookedBy)
    if (workflowIds.length > 1)
      findings.duplicateRows.push(`${key} booked by ${workflowIds.length} ramps: ${workflowIds.join(', ')}`);
  return { findings, afterFinalWrite, gasBookedLate };
}

/** A row's gas where its run's last write held other gas: returned when it is what the operator charged. */
function gasAheadOfRun(
  rowView: unknown,
  writtenView: unknown,
  charged: OperatorRecords['gas'] | undefined,
): { total: { asset: string; amount: string } } | undefined {
  const gasOf = (view: unknown) =>
    (view as { gas?: { total?: { asset: string; amount: string } } } | null)?.gas;
  const ours = gasOf(rowView);
  if (!charged || !ours?.total || isDeepStrictEqual(ours, gasOf(writtenView))) return undefined;
  const total = gasTotal(charged);
  return ours.total.asset === total.asset && sameAmount(ours.total.amount, total.amount)
    ? { ...ours, total: ours.total }
    : undefined;
}

// ------------------------------------------------------------------------------------------------ end users

/** Every end user the client named has its row, exactly as its workflow last wrote it, and no other row exists. */
export function checkEndUserRows(input: {
  /** Each end user the traffic named, with the workflow's state (its query) and its workflow ID. */
  endUsers: ReadonlyMap<string, { workflowId: string; state: EndUserState | undefined }>;
  rows: readonly EndUserRow[];
}): LedgerFindings {
  const findings = noLedgerFindings();
  const rows = new Map(input.rows.map((row) => [row.endUserId, row]));
  for (const [endUserId, { workflowId, state }] of [...input.endUsers].sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const row = rows.get(endUserId);
    if (!row) {
      findings.lostRows.push(`end user ${endUserId}: no row in end_users`);
      continue;
    }
    if (row.workflowId !== workflowId)
      findings.staleRows.push(
        `end user ${endUserId}: row names workflow ${row.workflowId}, not ${workflowId}`,
      );
    if (!state) {
      findings.staleRows.push(`end user ${endUserId}: its workflow could not be read to compare its row`);
      continue;
    }
    if (row.walletId !== (state.wallet?.walletId ?? null))
      findings.staleRows.push(
        `end user ${endUserId}: row holds wallet ${row.walletId ?? 'none'}; its workflow has ${state.wallet?.walletId ?? 'none'}`,
      );
    if (row.revision !== (state.recordedRevision ?? 0))
      findings.staleRows.push(
        `end user ${endUserId}: row at revision ${row.revision}; its workflow's last write was ${state.recordedRevision ?? 0}`,
      );
    const view = asStored(endUserView(state, row.updatedAt));
    const keys = differingKeys(row.view, view);
    if (keys.length > 0)
      findings.staleRows.push(
        `end user ${endUserId}: view differs from its workflow's state: ${describeDifference(row.view, view, keys)}`,
      );
  }
  for (const row of input.rows)
    if (!input.endUsers.has(row.endUserId))
      findings.duplicateRows.push(`end user ${row.endUserId}: a row of an end user nobody named`);
  return findings;
}

// ------------------------------------------------------------------------------------------------ the operator

/** What the operator's records say of one ramp, and what the client's traffic expects of it. */
export interface OperatorRecords {
  workflowId: string;
  direction: 'on-ramp' | 'off-ramp';
  /** How the ramp must have ended, and whose it is, by the client's own plan. */
  status: string;
  endUserId: string;
  orderReference: string | null;
  /** Off-ramp: the crypto deposit; on-ramp: the crypto settled to the master wallet (none unless executed). */
  deposit: { id: string; status: string; asset: string | null; amount: string | null } | null;
  order: {
    id: string;
    status: string;
    coinFrom: string | null;
    coinTo: string | null;
    amountFrom: string | null;
    amountTo: string | null;
  } | null;
  /** Off-ramps: what the operator charged for the gas top-up and the sweep, in the network's asset. */
  gas: Array<{ asset: string; amount: string }>;
}

const sameAmount = (a: string | null, b: string | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    DECIMAL_PATTERN.test(a) &&
    DECIMAL_PATTERN.test(b) &&
    compareDecimals(a, b) === 0);

/** The sum of the operator's gas charges, when they are all in one asset. */
function gasTotal(gas: OperatorRecords['gas']): { asset: string | null; amount: string | null } {
  if (gas.length === 0) return { asset: null, amount: null };
  const asset = gas[0]!.asset;
  if (gas.some((entry) => entry.asset !== asset)) return { asset: null, amount: null };
  return { asset, amount: formatAmount(gas.reduce((sum, entry) => sum + parseAmount(entry.amount), 0n)) };
}

/** How a booked row differs from the operator's records, by kind (one line per difference). */
export interface OperatorComparison {
  /** IDs, status, owner, assets, amounts, the order as booked: what the ramp reads before it settles. */
  differs: string[];
  /**
   * What the ramp knows only from the webhooks of its other transactions, so a ramp whose order completed before
   * those arrived books it as it last heard: a transaction's status, and the gas (its top-up's and sweep's fees).
   */
  behind: string[];
}

/**
 * A booked row against the operator: its IDs, status, assets, amounts and gas as the operator's records give
 * them, and every resource it booked as reconciliation reads it again (status and amounts).
 */
export function compareWithOperator(booking: BookingRow, operator: OperatorRecords): OperatorComparison {
  const { row } = booking;
  const result: OperatorComparison = { differs: [], behind: [] };
  const line = (field: string, ours: string | null, theirs: string | null) =>
    `${field} ${ours ?? 'absent'} (operator: ${theirs ?? 'absent'})`;
  const text = (field: string, ours: string | null, theirs: string | null, into = result.differs) => {
    if (ours !== theirs) into.push(line(field, ours, theirs));
  };
  const amount = (field: string, ours: string | null, theirs: string | null, into = result.differs) => {
    if (!sameAmount(ours, theirs)) into.push(line(field, ours, theirs));
  };
  const { order, deposit } = operator;
  const executed = order?.status === 'executed';
  text('status', row.status, operator.status);
  text('direction', row.direction, operator.direction);
  text('endUserId', row.endUserId, operator.endUserId);
  text('orderReference', row.orderReference, operator.orderReference);
  text('orderId', row.orderId, order?.id ?? null);
  text('depositTransactionId', row.depositTransactionId, deposit?.id ?? null);
  if (operator.direction === 'off-ramp') {
    text('assetFrom', row.assetFrom, deposit?.asset ?? null);
    amount('amountFrom', row.amountFrom, executed ? order.amountFrom : (deposit?.amount ?? null));
    text('assetTo', row.assetTo, executed ? order.coinTo : null);
    const gas = gasTotal(operator.gas);
    text('gasAsset', row.gasAsset, gas.asset, result.behind);
    amount('gasAmount', row.gasAmount, gas.amount, result.behind);
  } else {
    text('assetFrom', row.assetFrom, order?.coinFrom ?? null);
    amount('amountFrom', row.amountFrom, order?.amountFrom ?? null);
    text('assetTo', row.assetTo, executed ? order.coinTo : null);
  }
  amount('amountTo', row.amountTo, executed ? order.amountTo : null);
  // The resources reconciliation reads again.
  for (const resource of booking.resources) {
    const name = `${resource.kind} ${resource.id}`;
    if (resource.kind === 'order') {
      if (!order || order.id !== resource.id) {
        result.differs.push(`${name} booked; the operator's order of the ramp is ${order?.id ?? 'none'}`);
        continue;
      }
      text(`${name} status`, resource.status, order.status);
      amount(`${name} amountFrom`, resource.amountFrom, order.amountFrom);
      amount(`${name} amountTo`, resource.amountTo, order.amountTo);
    } else {
      if (!deposit || deposit.id !== resource.id) {
        result.differs.push(`${name} booked; the operator's deposit of the ramp is ${deposit?.id ?? 'none'}`);
        continue;
      }
      text(`${name} status`, resource.status, deposit.status, result.behind);
      amount(`${name} amount`, resource.amount, deposit.amount);
    }
  }
  return result;
}

/**
 * Every booked row equal to the operator's records of its ramp (a row whose ramp the operator does not know is a
 * mismatch too); what a ramp booked behind the operator (see OperatorComparison) is answered apart.
 */
export function checkBookingsAgainstOperator(
  bookings: readonly BookingRow[],
  operator: ReadonlyMap<string, OperatorRecords>,
): { findings: LedgerFindings; behind: string[] } {
  const findings = noLedgerFindings();
  const behind: string[] = [];
  for (const booking of bookings) {
    const records = operator.get(booking.workflowId);
    if (!records) {
      findings.bookingMismatches.push(`${booking.workflowId}: booked, but the operator has no record of it`);
      continue;
    }
    const comparison = compareWithOperator(booking, records);
    if (comparison.differs.length > 0)
      findings.bookingMismatches.push(`${booking.workflowId}: ${comparison.differs.join('; ')}`);
    if (comparison.behind.length > 0) behind.push(`${booking.workflowId}: ${comparison.behind.join('; ')}`);
  }
  return { findings, behind };
}

// ------------------------------------------------------------------------------------------------ outcome events

export interface EventCounts {
  /** Events the endpoint confirmed (each once). */
  confirmed: number;
  /** Deliveries of an event the endpoint had confirmed before (at least once: the client deduplicates). */
  redeliveredAfterConfirmation: number;
  /** Events still pending at the end, each with its reason. */
  pending: number;
}

/**
 * Every event a process raised is a row (sequences 1..n, n its own count) and none other; every event the client
 * endpoint got is a row, with the same body and a valid signature each time; every row reached the endpoint (its
 * first confirmation counts, later ones are redeliveries the client deduplicates) or is still pending with a
 * reason (its last refusal, or an earlier event of its process it waits for); and a process's events reached the
 * endpoint in their order.
 */
export function checkOutcomeEvents(input: {
  rows: readonly EventRow[];
  deliveries: readonly EndpointDelivery[];
  /** How many events each process says it raised (a ramp's final state, an end user's query). */
  raisedBy: ReadonlyMap<string, number>;
}): { findings: LedgerFindings; counts: EventCounts } {
  const findings = noLedgerFindings();
  const counts: EventCounts = { confirmed: 0, redeliveredAfterConfirmation: 0, pending: 0 };
  const rows = new Map(input.rows.map((row) => [row.webhookId, row]));
  const received = new Map<string, EndpointDelivery[]>();
  for (const delivery of [...input.deliveries].sort((a, b) => a.receivedAt - b.receivedAt))
    received.set(delivery.webhookId, [...(received.get(delivery.webhookId) ?? []), delivery]);

  // What the endpoint got.
  for (const [webhookId, deliveries] of received) {
    const row = rows.get(webhookId);
    if (!row) {
      findings.lostRows.push(`event ${webhookId}: the client endpoint got it; the ledger has no such event`);
      continue;
    }
    const firstConfirmation = deliveries.findIndex(confirmedBy);
    const confirmed = firstConfirmation >= 0;
    if (confirmed) {
      counts.confirmed += 1;
      counts.redeliveredAfterConfirmation += deliveries.length - 1 - firstConfirmation;
    }
    const unverified = deliveries.filter((delivery) => !delivery.verified).length;
    if (unverified > 0)
      findings.staleRows.push(
        `event ${webhookId}: ${unverified} of its deliveries carried no valid signature`,
      );
    const bodies = deliveries.filter((delivery) => {
      try {
        return !isDeepStrictEqual(JSON.parse(delivery.body), row.body);
      } catch {
        return true;
      }
    }).length;
    if (bodies > 0)
      findings.staleRows.push(
        `event ${webhookId}: ${bodies} of its deliveries carried another body than its row`,
      );
    if (confirmed && row.delivery === 'failed')
      findings.staleRows.push(`event ${webhookId}: the endpoint confirmed it; the ledger says it failed`);
  }

  // What the ledger holds.
  const byProcess = new Map<string, EventRow[]>();
  for (const row of input.rows) byProcess.set(row.processId, [...(byProcess.get(row.processId) ?? []), row]);
  for (const list of byProcess.values()) list.sort((a, b) => a.sequence - b.sequence);
  for (const row of input.rows) {
    const confirmed = (received.get(row.webhookId) ?? []).some(confirmedBy);
    if (row.delivery === 'delivered') {
      if (!confirmed)
        findings.lostRows.push(
          `event ${row.webhookId}: delivered in the ledger; the client endpoint never confirmed it`,
        );
      continue;
    }
    if (row.delivery === 'pending') {
      const waitsForEarlier = (byProcess.get(row.processId) ?? []).some(
        (other) => other.sequence < row.sequence && other.delivery === 'pending',
      );
      if (row.error !== null || waitsForEarlier || confirmed) {
        counts.pending += 1;
        continue;
      }
      findings.lostRows.push(`event ${row.webhookId}: pending with no attempt refused and nothing before it`);
      continue;
    }
    if (!confirmed)
      findings.lostRows.push(
        `event ${row.webhookId}: ${row.delivery}${row.error ? ` (${row.error})` : ''}; the client endpoint never confirmed it`,
      );
  }

  // Each process's events: 1..n, none missing, none it never raised, delivered in that order.
  for (const processId of [...new Set([...input.raisedBy.keys(), ...byProcess.keys()])].sort()) {
    const raised = input.raisedBy.get(processId);
    const list = byProcess.get(processId) ?? [];
    if (raised === undefined) {
      findings.duplicateRows.push(`events of ${processId}: ${list.length} rows of a process nobody started`);
      continue;
    }
    const sequences = new Set(list.map((row) => row.sequence));
    const missing = Array.from({ length: raised }, (_unused, index) => index + 1).filter(
      (sequence) => !sequences.has(sequence),
    );
    if (missing.length > 0)
      findings.lostRows.push(`events of ${processId}: raised ${raised}, no row for #${missing.join(', #')}`);
    const extra = list.filter((row) => row.sequence < 1 || row.sequence > raised);
    if (extra.length > 0)
      findings.duplicateRows.push(
        `events of ${processId}: rows #${extra.map((row) => row.sequence).join(', #')} beyond the ${raised} it raised`,
      );
    for (const [index, row] of list.entries()) {
      if (index === 0) continue;
      const first = (received.get(row.webhookId) ?? [])[0];
      if (!first) continue;
      const previous = list[index - 1]!;
      const previousConfirmed = (received.get(previous.webhookId) ?? []).find(confirmedBy);
      if (!previousConfirmed || previousConfirmed.receivedAt > first.receivedAt)
        findings.staleRows.push(
          `event ${row.webhookId}: reached the endpoint before #${previous.sequence} of its process was confirmed`,
        );
    }
  }
  return { findings, counts };
}

/** Several rule sets' findings together. */
export function mergeFindings(...all: LedgerFindings[]): LedgerFindings {
  const merged = noLedgerFindings();
  for (const findings of all)
    for (const key of Object.keys(merged) as (keyof LedgerFindings)[]) merged[key].push(...findings[key]);
  return merged;
}
