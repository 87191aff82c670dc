/**
 * Reads what the ledger rules (ledger-invariants.ts) judge, once the chaos run has settled: the ledger's rows with
 * SQL, each ramp's end from Temporal (its run's result) and each end user's state (its query), the operator's
 * records of each ramp through its API over HTTP (as reconciliation reads them), and the deliveries the stand-in
 * client endpoint received. Answers the findings and what was read.
 */
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { readOrder, readTransaction } from '../../../activities/shared/snapshots';
import type { Ledger } from '../../../src/database/connection';
import { endUserWorkflowId, WORKFLOW_TYPES } from '../../../src/domain/ids';
import type { OperatorClient } from '../../../src/operator/client';
import type { BookedResource } from '../../../src/ledger/ramp-views';
import type { RampRecord } from '../../../src/ledger/ramps';
import type { BookedRow } from '../../../src/ledger/views';
import type { EndUserState } from '../../../workflows/end-user/types';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import type { RunInfo } from './invariants';
import {
  checkBookingsAgainstOperator,
  checkEndUserRows,
  checkOutcomeEvents,
  checkRampRows,
  type EndpointDelivery,
  type EventCounts,
  type LedgerFindings,
  mergeFindings,
  type OperatorRecords,
  type RampInTemporal,
} from './ledger-invariants';

/** A ramp the client started or the operator ran, with what the client's plan expects of it. */
export interface RampOfTraffic {
  workflowId: string;
  direction: 'on-ramp' | 'off-ramp';
  /** The end it must reach (settled, expired, failed). */
  status: string;
  /** Whose it is, by the client's plan (on-ramps) or the operator's wallet label (off-ramps). */
  endUserId: string;
  orderReference: string | null;
  /** The operator's IDs of its resources, from the sandbox's own records of the flow. */
  orderId: string | null;
  depositTransactionId: string | null;
  /** Off-ramps: the gas top-up and the sweep, whose fees the ramp books. */
  gasTransactionIds: string[];
}

export interface LedgerReadout {
  findings: LedgerFindings;
  /**
   * Booked rows behind the operator in what a ramp learns only from its other transactions' webhooks (their
   * status, the gas): a ramp books what it last heard when its order completes. Reported, not yet a violation.
   */
  bookedBehindOperator: string[];
  /** Ramps whose end state differs from what their last write carried: a snapshot applied while it ran. Reported. */
  appliedAfterFinalWrite: string[];
  /** Off-ramps whose gas was booked after they ended, as the operator charged it. Reported. */
  gasBookedLate: string[];
  counts: {
    rampRows: number;
    bookings: number;
    endUserRows: number;
    eventRows: number;
    events: EventCounts;
    /** Ledger writes (recordRamp, recordEndUser) that took more than one attempt, and the most any took. */
    writesRetried: number;
    mostAttempts: number;
  };
}

const OPERATOR_READ_ATTEMPTS = 10;

/** An operator read, tried again on a fault of the run (an injected 503, an expired token). */
async function operatorRead<T>(read: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 1; attempt <= OPERATOR_READ_ATTEMPTS; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
  throw last;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await fn(items[index]!);
      }
    }),
  );
  return results;
}

/** The operator's records of one ramp: its order, its deposit and its gas transactions, read by ID. */
async function operatorRecords(operator: OperatorClient, ramp: RampOfTraffic): Promise<OperatorRecords> {
  const order = ramp.orderId ? await operatorRead(() => readOrder(operator, ramp.orderId!)) : null;
  const deposit = ramp.depositTransactionId
    ? await operatorRead(() => readTransaction(operator, ramp.depositTransactionId!))
    : null;
  const gas: OperatorRecords['gas'] = [];
  for (const id of ramp.gasTransactionIds) {
    const fee = (await operatorRead(() => readTransaction(operator, id))).fee;
    if (fee) gas.push(fee);
  }
  return {
    workflowId: ramp.workflowId,
    direction: ramp.direction,
    status: ramp.status,
    endUserId: ramp.endUserId,
    orderReference: ramp.orderReference,
    order: order && {
      id: order.id,
      status: order.status,
      coinFrom: order.coinFrom,
      coinTo: order.coinTo,
      amountFrom: order.amountFrom,
      amountTo: order.amountTo,
    },
    deposit: deposit && {
      id: deposit.id,
      status: deposit.status,
      asset: deposit.asset,
      amount: deposit.amount,
    },
    gas,
  };
}

/**
 * What Temporal says of each ramp: the state its completed run returned and what its last ledger write carried, or
 * that it has not ended.
 */
async function rampsInTemporal(
  client: Client,
  rampIds: readonly string[],
  runsById: ReadonlyMap<string, RunInfo[]>,
  writes: ReadonlyMap<string, LedgerWrites>,
): Promise<Map<string, RampInTemporal>> {
  const ends = await mapLimit(rampIds, 6, async (workflowId): Promise<[string, RampInTemporal]> => {
    const last = runsById.get(workflowId)?.at(-1);
    if (!last || last.status !== 'COMPLETED') return [workflowId, { ended: false }];
    const lastWrite = writes.get(workflowId)?.last?.ramp;
    const state = await client.workflow.getHandle(workflowId, last.runId, { followRuns: false }).result();
    return [
      workflowId,
      last.type === WORKFLOW_TYPES.onRamp
        ? { ended: true, ramp: { direction: 'on-ramp', workflowId, state: state as OnRampState }, lastWrite }
        : {
            ended: true,
            ramp: { direction: 'off-ramp', workflowId, state: state as OffRampState },
            lastWrite,
          },
    ];
  });
  return new Map(ends);
}

/** The ramps' ledger writes (an end user's is a local activity: its attempts are not events of the history). */
const LEDGER_ACTIVITIES = new Set(['recordRamp']);

/** A run's ledger writes from its history: each one's attempts (the database's faults show here), and the last's input. */
interface LedgerWrites {
  attempts: number[];
  last: RampRecord | undefined;
}

async function ledgerWrites(
  client: Client,
  runs: ReadonlyArray<{ workflowId: string; runId: string | undefined }>,
): Promise<Map<string, LedgerWrites>> {
  const perRun = await mapLimit(runs, 6, async ({ workflowId, runId }) => {
    const history = await client.workflow
      .getHandle(workflowId, runId)
      .fetchHistory()
      .catch(() => undefined);
    const scheduledWrites = new Set<string>();
    const writes: LedgerWrites = { attempts: [], last: undefined };
    for (const event of history?.events ?? []) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled && LEDGER_ACTIVITIES.has(scheduled.activityType?.name ?? '')) {
        scheduledWrites.add(String(event.eventId));
        const input = scheduled.input?.payloads?.[0];
        if (scheduled.activityType?.name === 'recordRamp' && input)
          writes.last = defaultPayloadConverter.fromPayload<RampRecord>(input);
      }
      const started = event.activityTaskStartedEventAttributes;
      if (started && scheduledWrites.has(String(started.scheduledEventId)))
        writes.attempts.push(started.attempt ?? 1);
    }
    return [workflowId, writes] as const;
  });
  return new Map(perRun);
}

export async function readAndCheckLedger(input: {
  db: Ledger;
  client: Client;
  operator: OperatorClient;
  /** Every ramp run Temporal lists, by workflow ID, oldest first. */
  runsById: ReadonlyMap<string, RunInfo[]>;
  ramps: readonly RampOfTraffic[];
  /** Every end user the traffic named, with its workflow's state as its query answered (undefined: no answer). */
  endUsers: ReadonlyMap<string, EndUserState | undefined>;
  deliveries: readonly EndpointDelivery[];
}): Promise<LedgerReadout> {
  const { db } = input;
  const [rampRows, bookingRows, endUserRows, eventRows] = await Promise.all([
    db
      .selectFrom('ramps')
      .select(['workflow_id', 'status', 'revision', 'view', 'updated_at', 'ended_at'])
      .execute(),
    db.selectFrom('bookings').select(['workflow_id', 'status', 'row', 'resources']).execute(),
    db
      .selectFrom('end_users')
      .select(['end_user_id', 'workflow_id', 'wallet_id', 'revision', 'view', 'updated_at'])
      .execute(),
    db
      .selectFrom('outcome_events')
      .select(['webhook_id', 'process_id', 'sequence', 'delivery', 'error', 'body'])
      .orderBy('process_id')
      .orderBy('sequence')
      .execute(),
  ]);
  const rows = rampRows.map((row) => ({
    workflowId: row.workflow_id,
    status: row.status,
    revision: row.revision,
    view: row.view,
    updatedAt: row.updated_at,
    endedAt: row.ended_at,
  }));
  const bookings = bookingRows.map((row) => ({
    workflowId: row.workflow_id,
    status: row.status,
    row: row.row as BookedRow,
    resources: row.resources as BookedResource[],
  }));
  const events = eventRows.map((row) => ({
    webhookId: row.webhook_id,
    processId: row.process_id,
    sequence: row.sequence,
    delivery: row.delivery,
    error: row.error,
    body: row.body,
  }));
  const eventIds = new Map<string, string[]>();
  for (const event of events)
    eventIds.set(event.processId, [...(eventIds.get(event.processId) ?? []), event.webhookId]);

  // Every ramp the client started, the operator ran, or Temporal lists.
  const rampIds = new Set(input.ramps.map((ramp) => ramp.workflowId));
  for (const [workflowId, runs] of input.runsById)
    if (runs.some((run) => run.type === WORKFLOW_TYPES.onRamp || run.type === WORKFLOW_TYPES.offRamp))
      rampIds.add(workflowId);
  const writes = await ledgerWrites(input.client, [
    ...[...rampIds].map((workflowId) => ({
      workflowId,
      runId: input.runsById.get(workflowId)?.at(-1)?.runId,
    })),
    ...[...input.endUsers.keys()].map((endUserId) => ({
      workflowId: endUserWorkflowId(endUserId),
      runId: undefined,
    })),
  ]);
  const temporal = await rampsInTemporal(input.client, [...rampIds], input.runsById, writes);

  const endUsers = new Map(
    [...input.endUsers].map(([endUserId, state]) => [
      endUserId,
      { workflowId: endUserWorkflowId(endUserId), state },
    ]),
  );

  // How many events each process raised: an ended ramp's final state, an end user's state. A ramp still running
  // is the lost-process rule's finding; its events are taken as the ledger holds them.
  const raisedBy = new Map<string, number>();
  for (const workflowId of rampIds) {
    const end = temporal.get(workflowId);
    raisedBy.set(
      workflowId,
      end?.ended ? end.ramp.state.outcomes.sequence : (eventIds.get(workflowId)?.length ?? 0),
    );
  }
  for (const { workflowId, state } of endUsers.values())
    raisedBy.set(workflowId, state?.outcomes.sequence ?? eventIds.get(workflowId)?.length ?? 0);

  const operator = new Map(
    await mapLimit(
      input.ramps,
      4,
      async (ramp) => [ramp.workflowId, await operatorRecords(input.operator, ramp)] as const,
    ),
  );
  const checkedEvents = checkOutcomeEvents({ rows: events, deliveries: input.deliveries, raisedBy });
  const againstOperator = checkBookingsAgainstOperator(bookings, operator);
  const attempts = [...writes.values()].flatMap((write) => write.attempts);
  const operatorGas = new Map([...operator].map(([workflowId, records]) => [workflowId, records.gas]));
  const checkedRamps = checkRampRows({ rampIds, temporal, rows, bookings, eventIds, operatorGas });
  return {
    bookedBehindOperator: againstOperator.behind,
    appliedAfterFinalWrite: checkedRamps.afterFinalWrite,
    gasBookedLate: checkedRamps.gasBookedLate,
    findings: mergeFindings(
      checkedRamps.findings,
      checkEndUserRows({
        endUsers,
        rows: endUserRows.map((row) => ({
          endUserId: row.end_user_id,
          workflowId: row.workflow_id,
          walletId: row.wallet_id,
          revision: row.revision,
          view: row.view,
          updatedAt: row.updated_at,
        })),
      }),
      againstOperator.findings,
      checkedEvents.findings,
    ),
    counts: {
      rampRows: rows.length,
      bookings: bookings.length,
      endUserRows: endUserRows.length,
      eventRows: events.length,
      events: checkedEvents.counts,
      writesRetried: attempts.filter((count) => count > 1).length,
      mostAttempts: Math.max(0, ...attempts),
    },
  };
}
