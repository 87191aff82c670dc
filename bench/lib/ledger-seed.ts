/**
 * A ledger at volume for the legs that read it (statement, events), written straight into a bench database in
 * batches: ended ramps as their record activity writes them (view, booked row and resources made by the product's
 * own src/ledger/ramp-views.ts from a final state), and outcome events as processes raise them, with their deliveries
 * in every state. The mix is a function of each row's index, so two runs of a size seed the same ledger:
 * - ramps: 55 % off-ramps (92 % settled, the rest failed, exception, timed out; a first deposit tops up gas) and
 *   45 % on-ramps (85 % settled, the rest expired, failed, unclaimed, exception), amounts of 20 to 500 USDT against
 *   a quote within a few basis points, end users skewed so that a few have many ramps;
 * - events: each ramp's `created` and how it ended (an exception before its settlement), and each end user's
 *   `deposit_wallet.created`; 96 % delivered, failed ones clustered in an outage half a day long, the newest pending
 *   behind an outage still going on, a few with no endpoint.
 * Rows go in as one JSON parameter per batch (json_populate_recordset): no parameter limit, one round trip each.
 */
import { sql } from 'kysely';
import type { Ledger } from '../../src/database/connection';
import { amountsAgainstQuote } from '../../src/domain/amounts-against-quote';
import { offRampWorkflowId, endUserWorkflowId, onRampWorkflowId } from '../../src/domain/ids';
import type { RampException } from '../../src/domain/markets';
import {
  type OutcomeEvent,
  type OutcomeEventData,
  type OutcomeEventType,
  outcomeWebhookId,
} from '../../src/domain/outcome-events';
import { rampGas } from '../../src/domain/ramp-gas';
import { bookedResources, bookedRow, type RampState, rampView } from '../../src/ledger/ramp-views';
import { newOutbox } from '../../workflows/outcomes/outbox';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../workflows/ramps/onramp/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';

/** Rows per insert: one JSON document of a few MB. */
const BATCH_ROWS = 2_000;
const TRON = 'networks/tron-mainnet';
const MINUTE_MS = 60_000;

/** A number in [0, 1) fixed by an index and a salt (a multiplicative hash: no state, the same on every run). */
function share(index: number, salt: number): number {
  let x = (index + 1) * 2654435761 + salt * 40503;
  x = Math.imul(x ^ (x >>> 15), 2246822519);
  x = Math.imul(x ^ (x >>> 13), 3266489917);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
}

/** Picks by cumulative shares: `[['a', 0.9], ['b', 0.1]]`. */
function pick<T>(value: number, choices: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [choice, weight] of choices) {
    total += weight;
    if (value < total) return choice;
  }
  return choices[choices.length - 1]![0];
}

/** Hundredths as a decimal string: 12345 -> "123.45". */
const cents = (hundredths: number) =>
  `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;

export interface SeedSpan {
  /** Epoch ms: the first ramp closes at or after this, the last before `toMs`. */
  fromMs: number;
  toMs: number;
}

/** End users the seeded ramps belong to: a few with many ramps, most with a handful. */
export const endUserOf = (index: number, endUsers: number, label: string) =>
  `${label}-user-${Math.floor(endUsers * share(index, 7) ** 2)}`;

export interface SeededRamp {
  ramp: RampState;
  closedAt: string;
  /** Its outcome events in order, each with when it happened. */
  events: OutcomeEvent[];
}

const OFF_RAMP_ENDS = [
  ['settled', 0.92],
  ['failed', 0.04],
  ['exception', 0.03],
  ['timed-out', 0.01],
] as const;
const ON_RAMP_ENDS = [
  ['settled', 0.85],
  ['expired', 0.08],
  ['failed', 0.03],
  ['unclaimed', 0.02],
  ['exception', 0.02],
] as const;

const isOffRamp = (index: number) => share(index, 5) < 0.55;
const offRampEnd = (index: number) => pick(share(index, 6), OFF_RAMP_ENDS);
const onRampEnd = (index: number) => pick(share(index, 6), ON_RAMP_ENDS);

/** The events a ramp that ended so raised, in order: its start's (an unclaimed on-ramp had no end user then), its end's. */
function rampEventTypes(index: number): OutcomeEventType[] {
  if (isOffRamp(index)) {
    const status = offRampEnd(index);
    if (status === 'exception') return ['off_ramp.created', 'off_ramp.exception', 'off_ramp.settled'];
    return ['off_ramp.created', status === 'timed-out' ? 'off_ramp.timed_out' : `off_ramp.${status}`];
  }
  const status = onRampEnd(index);
  if (status === 'exception') return ['on_ramp.created', 'on_ramp.exception', 'on_ramp.settled'];
  return status === 'unclaimed' ? ['on_ramp.unclaimed'] : ['on_ramp.created', `on_ramp.${status}`];
}

/** The index-th of `count` ramps, closed at an instant spread evenly over the span. */
export function seededRamp(
  index: number,
  count: number,
  span: SeedSpan,
  options: { label: string; endUsers: number },
): SeededRamp {
  const closedMs = span.fromMs + Math.floor(((index + share(index, 1)) * (span.toMs - span.fromMs)) / count);
  const closedAt = new Date(closedMs).toISOString();
  const startedMs = closedMs - Math.floor((2 + 40 * share(index, 2)) * MINUTE_MS);
  const times = {
    startedAt: new Date(startedMs).toISOString(),
    endedAt: closedAt,
    executedAt: new Date(closedMs - 30_000).toISOString(),
    quoteExpiresAt: new Date(startedMs + 15 * MINUTE_MS).toISOString(),
  };
  const endUserId = endUserOf(index, options.endUsers, options.label);
  // 20.00 to 500.00 USDT; about 17.2 MXN each, executed within a few basis points of the quote.
  const usdt = 2_000 + Math.floor(48_000 * share(index, 3));
  const quotedMxn = Math.round(usdt * 17.2);
  const executedMxn = quotedMxn + Math.round(quotedMxn * 0.0006 * (share(index, 4) - 0.7));
  return isOffRamp(index)
    ? seededOffRamp(index, options.label, endUserId, { usdt, quotedMxn, executedMxn }, times, closedAt)
    : seededOnRamp(index, options.label, endUserId, { usdt, quotedMxn, executedMxn }, times, closedAt);
}

interface Amounts {
  usdt: number;
  quotedMxn: number;
  executedMxn: number;
}

interface Times {
  startedAt: string;
  endedAt: string;
  executedAt: string;
  quoteExpiresAt: string;
}

const bookkeeping = (times: Times) => ({
  eventsApplied: 5,
  duplicates: 0,
  polls: 0,
  startedAt: times.startedAt,
  endedAt: times.endedAt,
  outcomes: newOutbox(),
});

function transaction(
  id: string,
  fields: Pick<TransactionSnapshot, 'status' | 'type' | 'amount' | 'asset'> & Partial<TransactionSnapshot>,
  readAt: string,
): TransactionSnapshot {
  return {
    subtype: null,
    walletId: 'wallet-seed',
    network: TRON,
    relatedTransactionId: null,
    orderId: null,
    readAt,
    id,
    ...fields,
  };
}

function order(id: string, fields: Omit<OrderSnapshot, 'id' | 'readAt'>, readAt: string): OrderSnapshot {
  return { id, readAt, ...fields };
}

const offQuote = (seenAt: string): RampException => ({
  reason: 'off_quote',
  message: 'The executed rate is 0.6 % from the quoted one, beyond the 0.5 % tolerance',
  seenAt,
});

function seededOffRamp(
  index: number,
  label: string,
  endUserId: string,
  amounts: Amounts,
  times: Times,
  closedAt: string,
): SeededRamp {
  const status = offRampEnd(index);
  const depositId = `${label}-deposit-${index}`;
  const workflowId = offRampWorkflowId(depositId);
  const usdt = cents(amounts.usdt);
  const deposit = transaction(
    depositId,
    { status: 'confirmed', type: 'Deposit', asset: 'USDT', amount: usdt },
    closedAt,
  );
  const firstDeposit = share(index, 8) < 0.3;
  const topUp = firstDeposit
    ? transaction(
        `${depositId}-topup`,
        { status: 'confirmed', type: 'Transfer', asset: 'TRX', amount: '15' },
        closedAt,
      )
    : undefined;
  const failed = status === 'failed';
  const sweep = transaction(
    `${depositId}-sweep`,
    {
      status: failed ? 'failed' : status === 'timed-out' ? 'published' : 'confirmed',
      type: 'Transfer',
      asset: 'USDT',
      amount: usdt,
      fee: { asset: 'TRX', amount: '13.4' },
    },
    closedAt,
  );
  const executes = status === 'settled' || status === 'exception';
  const orderId = `${label}-off-order-${index}`;
  const quote = {
    amountFrom: usdt,
    targetAmount: cents(amounts.quotedMxn),
    expiresAt: times.quoteExpiresAt,
    coinFrom: 'USDT',
    chainFrom: 'TRX',
    coinTo: 'MXN',
    shownAt: times.startedAt,
  };
  const executedMxn = status === 'exception' ? Math.round(amounts.quotedMxn * 0.994) : amounts.executedMxn;
  const state: OffRampState = {
    ...bookkeeping(times),
    depositTransactionId: depositId,
    status,
    step: {
      settled: 'Settled',
      failed: 'Sweep failed',
      exception: 'Settled off quote',
      'timed-out': 'Timed out',
    }[status],
    endUserId,
    unattributed: false,
    deposit,
    ...(topUp ? { gasTopUp: topUp } : {}),
    sweep,
    alertsRaised: 0,
    quote,
    ...(failed ? { failure: { transactionId: sweep.id, role: 'sweep', status: 'failed' } } : {}),
    gas: rampGas(topUp ? { asset: 'TRX', amount: '15' } : undefined, { asset: 'TRX', amount: '13.4' }),
    ...(executes
      ? {
          orderId,
          order: order(
            orderId,
            {
              orderReference: `${label}-off-${index}`,
              status: 'executed',
              direction: 'off-ramp',
              coinFrom: 'USDT',
              coinTo: 'MXN',
              chainTo: null,
              amountFrom: usdt,
              amountTo: cents(executedMxn),
              transactionId: `${depositId}-order`,
            },
            closedAt,
          ),
          orderTransaction: transaction(
            `${depositId}-order`,
            { status: 'completed', type: 'Withdrawal', asset: 'USDT', amount: usdt },
            closedAt,
          ),
          fiatAmount: cents(executedMxn),
          fiatCurrency: 'MXN',
          amounts: amountsAgainstQuote(
            { amountFrom: usdt, amountTo: cents(executedMxn), executedAt: times.executedAt },
            quote,
          ),
        }
      : {}),
    ...(status === 'exception' ? { exceptions: [offQuote(times.executedAt)] } : {}),
  };
  const ramp: RampState = { direction: 'off-ramp', workflowId, state };
  return { ramp, closedAt, events: rampEvents(ramp, rampEventTypes(index), times) };
}

function seededOnRamp(
  index: number,
  label: string,
  endUserId: string,
  amounts: Amounts,
  times: Times,
  closedAt: string,
): SeededRamp {
  const status = onRampEnd(index);
  const reference = `${label}-on-${index}`;
  const workflowId = onRampWorkflowId(reference);
  const mxn = cents(amounts.quotedMxn);
  const quotedUsdt = cents(amounts.usdt);
  const executedUsdt =
    status === 'exception'
      ? cents(Math.round(amounts.usdt * 0.994))
      : cents(Math.round((amounts.usdt * amounts.quotedMxn) / amounts.executedMxn));
  const executes = status !== 'expired';
  const orderId = `${label}-on-order-${index}`;
  const quote = {
    amountFrom: mxn,
    targetAmount: quotedUsdt,
    expiresAt: times.quoteExpiresAt,
    coinTo: 'USDT',
    chainTo: 'TRX',
  };
  const deposit = executes
    ? transaction(
        `${reference}-deposit`,
        {
          status: status === 'failed' ? 'failed' : 'confirmed',
          type: 'Deposit',
          asset: 'USDT',
          amount: executedUsdt,
          orderId,
        },
        closedAt,
      )
    : undefined;
  const unclaimed = status === 'unclaimed';
  const state: OnRampState = {
    ...bookkeeping(times),
    orderReference: reference,
    status,
    step: {
      settled: 'Settled',
      expired: 'Order expired',
      failed: 'Deposit failed',
      unclaimed: 'Settled, no end user',
      exception: 'Settled off quote',
    }[status],
    endUserId: unclaimed ? null : endUserId,
    unattributed: unclaimed,
    ...(unclaimed ? {} : { quote }),
    order: order(
      orderId,
      {
        orderReference: reference,
        status: executes ? 'executed' : 'expired',
        direction: 'on-ramp',
        coinFrom: 'MXN',
        coinTo: 'USDT',
        chainTo: 'TRX',
        amountFrom: mxn,
        amountTo: executes ? executedUsdt : null,
        transactionId: deposit?.id ?? null,
      },
      closedAt,
    ),
    ...(deposit ? { deposit, cryptoAmount: executedUsdt, asset: 'USDT' } : {}),
    ...(status === 'failed' && deposit
      ? { failure: { resource: 'transaction' as const, id: deposit.id, status: 'failed' } }
      : {}),
    ...(executes
      ? {
          amounts: amountsAgainstQuote(
            { amountFrom: mxn, amountTo: executedUsdt, executedAt: times.executedAt },
            unclaimed ? undefined : quote,
          ),
        }
      : {}),
    ...(status === 'exception' ? { exceptions: [offQuote(times.executedAt)] } : {}),
    ...(unclaimed
      ? { claimableUntil: new Date(Date.parse(closedAt) + 7 * 24 * 60 * MINUTE_MS).toISOString() }
      : {}),
  };
  const ramp: RampState = { direction: 'on-ramp', workflowId, state };
  return { ramp, closedAt, events: rampEvents(ramp, rampEventTypes(index), times) };
}

/** A ramp's events: the first when it started, the others when it ended; each says what a client books. */
function rampEvents(ramp: RampState, types: OutcomeEventType[], times: Times): OutcomeEvent[] {
  const view = rampView(ramp, times.endedAt);
  return types.map((type, position) => {
    const first = position === 0 && types.length > 1;
    const data: OutcomeEventData = {
      workflowId: ramp.workflowId,
      endUserId: view.endUserId,
      status: first
        ? ramp.direction === 'off-ramp'
          ? 'awaiting-deposit-confirmation'
          : 'awaiting-deposit'
        : view.status,
      step: first ? 'Started' : view.step,
      ...(ramp.direction === 'off-ramp'
        ? {
            depositTransactionId: ramp.state.depositTransactionId,
            network: TRON,
            asset: 'USDT',
            ...(ramp.state.deposit?.amount ? { cryptoAmount: ramp.state.deposit.amount } : {}),
          }
        : { orderReference: ramp.state.orderReference }),
      ...(!first && ramp.state.amounts ? { amounts: ramp.state.amounts } : {}),
      ...(!first && ramp.direction === 'off-ramp' && ramp.state.gas ? { gas: ramp.state.gas } : {}),
      ...(!first && ramp.state.exceptions ? { exceptions: ramp.state.exceptions } : {}),
    };
    return {
      type,
      timestamp: first
        ? times.startedAt
        : new Date(Date.parse(times.endedAt) - (types.length - 1 - position) * 1000).toISOString(),
      data,
    };
  });
}

/** Inserts rows through one JSON parameter: the columns are the table's, the values each row's. */
async function insertJson(
  db: Ledger,
  table: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const list = sql.join(columns.map((column) => sql.id(column)));
  await sql`insert into ${sql.table(table)} (${list})
    select ${list} from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json)`.execute(
    db,
  );
}

/**
 * Books `count` ended ramps closing across the span: each ramp's view and booked row as its last write leaves them,
 * most already reconciled (`matches`), the newest tenth not yet, one in two hundred found differing.
 */
export async function seedBookedRamps(
  db: Ledger,
  count: number,
  span: SeedSpan,
  options: { label: string; endUsers: number },
): Promise<void> {
  for (let first = 0; first < count; first += BATCH_ROWS) {
    const ramps = [];
    const bookings = [];
    for (let index = first; index < Math.min(count, first + BATCH_ROWS); index += 1) {
      const { ramp, closedAt, events } = seededRamp(index, count, span, options);
      const webhookIds = events.map((_event, position) => outcomeWebhookId(ramp.workflowId, position + 1));
      const checked = index < count * 0.9;
      const differs = checked && share(index, 9) < 0.005;
      ramps.push({
        workflow_id: ramp.workflowId,
        direction: ramp.direction,
        end_user_id: ramp.state.endUserId,
        status: ramp.state.status,
        revision: events.length + 2,
        view: rampView(ramp, closedAt),
        started_at: ramp.state.startedAt,
        updated_at: closedAt,
        ended_at: closedAt,
      });
      bookings.push({
        workflow_id: ramp.workflowId,
        direction: ramp.direction,
        status: ramp.state.status,
        closed_at: closedAt,
        row: bookedRow(ramp, closedAt, webhookIds),
        resources: bookedResources(ramp),
        reconciled: checked ? (differs ? 'differs' : 'matches') : 'unchecked',
        reconciliation: differs ? 'the operator reports the order at a different amountTo' : '',
        checked_at: checked ? closedAt : null,
      });
    }
    await insertJson(db, 'ramps', ramps);
    await insertJson(db, 'bookings', bookings);
  }
}

/** Delivery states of seeded events, and where their times fall in the span. */
const OUTAGE = { from: 0.4, to: 0.42 };
const STILL_DOWN = 0.998;

/**
 * Records `count` outcome events raised across the span (each ramp's, and the first event of every end user met):
 * how each delivery went as the dispatcher leaves it (attempts, times, errors), pending ones waiting behind the
 * earlier ones of their process. Answers the events inserted and the ramps they belong to.
 */
export async function seedOutcomeEvents(
  db: Ledger,
  count: number,
  span: SeedSpan,
  options: { label: string; endUsers: number; retryForMs: number },
): Promise<{ events: number; ramps: number }> {
  // As many ramps as make `count` events with their end users' first events (counted without building them).
  let ramps = 0;
  const users = new Set<string>();
  for (let total = 0; total < count; ramps += 1) {
    const endUser = endUserOf(ramps, options.endUsers, options.label);
    const types = rampEventTypes(ramps);
    if (types[0] !== 'on_ramp.unclaimed' && !users.has(endUser)) {
      users.add(endUser);
      total += 1;
    }
    total += types.length;
  }
  const usersSeen = new Set<string>();
  let events = 0;
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    await insertJson(db, 'outcome_events', batch);
    batch = [];
  };
  /** `key`: a number of this event alone, which its delivery's fate is drawn from. */
  const record = async (processId: string, sequence: number, event: OutcomeEvent, key: number) => {
    const at = Date.parse(event.timestamp);
    const position = (at - span.fromMs) / (span.toMs - span.fromMs);
    const roll = share(key, 11);
    const delivery =
      position >= STILL_DOWN
        ? 'pending'
        : (position >= OUTAGE.from && position < OUTAGE.to && roll < 0.6) || roll < 0.005
          ? 'failed'
          : roll > 0.997
            ? 'no-endpoint'
            : 'delivered';
    const attempts = delivery === 'failed' ? 12 : delivery === 'pending' ? 3 : roll < 0.03 ? 2 : 1;
    const lastAttempt = new Date(at + (delivery === 'failed' ? options.retryForMs : 150 + 300 * roll));
    batch.push({
      webhook_id: outcomeWebhookId(processId, sequence),
      process_id: processId,
      sequence,
      type: event.type,
      end_user_id: event.data.endUserId,
      occurred_at: event.timestamp,
      body: event,
      delivery,
      attempts,
      next_attempt_at: delivery === 'pending' ? new Date(span.toMs + 10 * MINUTE_MS).toISOString() : null,
      leased_until: null,
      give_up_at: delivery === 'pending' ? new Date(at + options.retryForMs).toISOString() : null,
      retry_for_ms: options.retryForMs,
      last_attempt_at: lastAttempt.toISOString(),
      delivered_at: delivery === 'pending' ? null : lastAttempt.toISOString(),
      error:
        delivery === 'delivered' || delivery === 'no-endpoint'
          ? null
          : 'endpoint answered HTTP 503 Service Unavailable',
      confirmed_endpoints: delivery === 'delivered' ? ['client'] : [],
      redelivery_job: null,
      trace_parent: null,
      recorded_at: event.timestamp,
    });
    events += 1;
    if (batch.length >= BATCH_ROWS) await flush();
  };
  for (let index = 0; index < ramps && events < count; index += 1) {
    const seeded = seededRamp(index, ramps, span, options);
    const endUserId = seeded.ramp.state.endUserId;
    if (endUserId && !usersSeen.has(endUserId)) {
      usersSeen.add(endUserId);
      const walletId = `${options.label}-wallet-${usersSeen.size}`;
      const workflowId = endUserWorkflowId(endUserId);
      await record(
        workflowId,
        1,
        {
          type: 'deposit_wallet.created',
          timestamp: new Date(Date.parse(seeded.ramp.state.startedAt) - 5 * MINUTE_MS).toISOString(),
          data: {
            workflowId,
            endUserId,
            status: 'ready',
            step: 'Deposit wallet ready',
            walletId,
            addresses: [
              { network: TRON, address: `T${walletId.padEnd(33, '0').slice(0, 33)}` },
              {
                network: 'networks/ethereum-mainnet',
                address: `0x${String(usersSeen.size).padStart(40, '0')}`,
              },
            ],
          },
        },
        ramps * 4 + usersSeen.size,
      );
    }
    for (const [position, event] of seeded.events.entries())
      await record(seeded.ramp.workflowId, position + 1, event, index * 4 + position);
  }
  await flush();
  return { events, ramps };
}
