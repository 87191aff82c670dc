/**
 * The settlement statement's pure parts: one row per closed ramp from its final state, the operator resources it
 * booked, what a fresh read of them says against the row, the totals per asset and status, and the CSV form.
 * Every amount is a decimal string.
 */
import { formatFraction, type Fraction, fractionOf } from '../domain/decimal';
import type { RampDirection } from '../domain/vocabulary';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../workflows/ramps/onramp/types';
import type { OrderSnapshot, TransactionSnapshot } from '../../workflows/ramps/shared/snapshots';
import type { ResourceRead, ResourceRef } from '../../workflows/statement/types';

/** A closed ramp as the statement finds it: its run in visibility and, when it could be read, its final state. */
export type ClosedRamp = {
  workflowId: string;
  status: string;
  closedAt: string;
  startedAt: string;
} & (
  | { direction: 'on-ramp'; state?: OnRampState }
  | { direction: 'off-ramp'; state?: OffRampState }
  | { direction: RampDirection; state?: undefined }
);

/** `matches`: the operator agrees with every status and amount booked; `differs`: it does not (the row says how). */
export type Reconciled = 'matches' | 'differs' | 'unreadable' | 'nothing-to-read';

export interface StatementRow {
  workflowId: string;
  direction: RampDirection;
  status: string;
  endUserId: string | null;
  orderReference: string | null;
  depositTransactionId: string | null;
  orderId: string | null;
  /** The webhook-ids of the ramp's outcome events, in order. */
  webhookIds: string[];
  /** What the end user sent (MXN on-ramp, the token off-ramp) and what they received, as executed. */
  assetFrom: string | null;
  amountFrom: string | null;
  assetTo: string | null;
  amountTo: string | null;
  rate: string | null;
  quotedAmountFrom: string | null;
  quotedTargetAmount: string | null;
  quotedRate: string | null;
  quoteExpiresAt: string | null;
  difference: string | null;
  differencePercent: string | null;
  executedAfterExpiry: boolean | null;
  gasAsset: string | null;
  gasAmount: string | null;
  exceptions: string[];
  startedAt: string;
  endedAt: string | null;
  claimedAt: string | null;
  closedAt: string;
  reconciled: Reconciled;
  /** What the operator says where it differs, or why it could not be read. */
  reconciliation: string;
}

/** One total: ramps of a status that moved an asset, what users sent of it, what they received, the gas paid in it. */
export interface StatementTotal {
  status: string;
  asset: string;
  ramps: number;
  received: string;
  delivered: string;
  gas: string;
}

// ---------------------------------------------------------------------------------------------- rows

export function statementRow(ramp: ClosedRamp): Omit<StatementRow, 'reconciled' | 'reconciliation'> {
  const base = {
    workflowId: ramp.workflowId,
    direction: ramp.direction,
    status: ramp.state?.status ?? ramp.status,
    startedAt: ramp.state?.startedAt ?? ramp.startedAt,
    endedAt: ramp.state?.endedAt ?? null,
    closedAt: ramp.closedAt,
    endUserId: ramp.state?.endUserId ?? null,
    webhookIds: ramp.state?.outcomes?.events.map((record) => record.webhookId) ?? [],
    exceptions: ramp.state?.exceptions?.map((exception) => exception.reason) ?? [],
  };
  const amounts = ramp.state?.amounts;
  const booked = {
    rate: amounts?.executed.rate ?? null,
    quotedAmountFrom: amounts?.quoted?.amountFrom ?? null,
    quotedTargetAmount: amounts?.quoted?.targetAmount ?? null,
    quotedRate: amounts?.quoted?.rate ?? null,
    quoteExpiresAt: amounts?.quoted?.expiresAt ?? null,
    difference: amounts?.difference ?? null,
    differencePercent: amounts?.differencePercent ?? null,
    executedAfterExpiry: amounts?.executedAfterExpiry ?? null,
  };
  if (ramp.direction === 'off-ramp') {
    const state = ramp.state;
    return {
      ...base,
      ...booked,
      orderReference: null,
      depositTransactionId: state?.depositTransactionId ?? null,
      orderId: state?.orderId ?? state?.order?.id ?? null,
      assetFrom: state?.deposit?.asset ?? null,
      amountFrom: amounts?.executed.amountFrom ?? state?.deposit?.amount ?? null,
      assetTo: amounts ? (state?.order?.coinTo ?? state?.fiatCurrency ?? null) : null,
      amountTo: amounts?.executed.amountTo ?? null,
      gasAsset: state?.gas?.total?.asset ?? null,
      gasAmount: state?.gas?.total?.amount ?? null,
      claimedAt: null,
    };
  }
  const state = ramp.state;
  const order = state?.order;
  return {
    ...base,
    ...booked,
    orderReference: state?.orderReference ?? null,
    depositTransactionId: state?.deposit?.id ?? null,
    orderId: order?.id ?? null,
    assetFrom: order?.coinFrom ?? null,
    amountFrom: amounts?.executed.amountFrom ?? order?.amountFrom ?? null,
    assetTo: amounts ? (order?.coinTo ?? null) : null,
    amountTo: amounts?.executed.amountTo ?? null,
    gasAsset: null,
    gasAmount: null,
    claimedAt: state?.claimedAt ?? null,
  };
}

// ---------------------------------------------------------------------------------------------- reconciliation

/** What a closed ramp booked at the operator: the snapshots the statement compares a fresh read with. */
function bookedSnapshots(ramp: ClosedRamp): { orders: OrderSnapshot[]; transactions: TransactionSnapshot[] } {
  const state = ramp.state;
  if (!state) return { orders: [], transactions: [] };
  if (ramp.direction === 'off-ramp') {
    const off = state as OffRampState;
    return {
      orders: off.order ? [off.order] : [],
      transactions: off.deposit ? [off.deposit] : [],
    };
  }
  const on = state as OnRampState;
  return { orders: on.order ? [on.order] : [], transactions: on.deposit ? [on.deposit] : [] };
}

/** The resources to read afresh for a ramp. */
export function resourcesToRead(ramp: ClosedRamp): ResourceRef[] {
  const { orders, transactions } = bookedSnapshots(ramp);
  return [
    ...orders.map((order) => ({ kind: 'order' as const, id: order.id })),
    ...transactions.map((transaction) => ({ kind: 'transaction' as const, id: transaction.id })),
  ];
}

/** Whether the operator, read afresh, agrees with every status and amount the ramp booked. */
export function reconcile(
  ramp: ClosedRamp,
  reads: ReadonlyMap<string, ResourceRead>,
): Pick<StatementRow, 'reconciled' | 'reconciliation'> {
  const { orders, transactions } = bookedSnapshots(ramp);
  if (orders.length === 0 && transactions.length === 0)
    return { reconciled: 'nothing-to-read', reconciliation: 'the ramp booked no operator resource' };
  const unreadable: string[] = [];
  const differences: string[] = [];
  const compare = (what: string, ours: string | null, theirs: string | null) => {
    if (ours !== theirs) differences.push(`${what} ${theirs ?? 'absent'} (booked ${ours ?? 'absent'})`);
  };
  for (const booked of orders) {
    const read = reads.get(`order/${booked.id}`);
    if (!read || 'error' in read || read.kind !== 'order') {
      unreadable.push(`order ${booked.id}: ${read && 'error' in read ? read.error : 'not read'}`);
      continue;
    }
    compare(`order ${booked.id} status`, booked.status, read.order.status);
    compare(`order ${booked.id} amountFrom`, booked.amountFrom, read.order.amountFrom);
    compare(`order ${booked.id} amountTo`, booked.amountTo, read.order.amountTo);
  }
  for (const booked of transactions) {
    const read = reads.get(`transaction/${booked.id}`);
    if (!read || 'error' in read || read.kind !== 'transaction') {
      unreadable.push(`transaction ${booked.id}: ${read && 'error' in read ? read.error : 'not read'}`);
      continue;
    }
    compare(`transaction ${booked.id} status`, booked.status, read.transaction.status);
    compare(`transaction ${booked.id} amount`, booked.amount, read.transaction.amount);
  }
  if (unreadable.length > 0) return { reconciled: 'unreadable', reconciliation: unreadable.join('; ') };
  if (differences.length > 0)
    return { reconciled: 'differs', reconciliation: `the operator says ${differences.join('; ')}` };
  return { reconciled: 'matches', reconciliation: '' };
}

export const readKey = (resource: ResourceRef) => `${resource.kind}/${resource.id}`;

// ---------------------------------------------------------------------------------------------- totals

interface Sums {
  ramps: number;
  received: Fraction;
  delivered: Fraction;
  gas: Fraction;
}

const ZERO: Fraction = { numerator: 0n, denominator: 1n };

function add(a: Fraction, text: string): Fraction {
  const b = fractionOf(text);
  if (a.denominator === b.denominator)
    return { numerator: a.numerator + b.numerator, denominator: a.denominator };
  const denominator = a.denominator > b.denominator ? a.denominator : b.denominator;
  // Decimal denominators are powers of ten: the larger is a multiple of the smaller.
  return {
    numerator: a.numerator * (denominator / a.denominator) + b.numerator * (denominator / b.denominator),
    denominator,
  };
}

/** Totals per status and asset, added row by row (the statement never holds its rows). */
export class StatementTotals {
  private readonly sums = new Map<string, Sums & { status: string; asset: string }>();

  add(row: StatementRow): void {
    const touched = new Set<string>();
    const entry = (asset: string) => {
      const key = `${row.status}\u0000${asset}`;
      let sums = this.sums.get(key);
      if (!sums) {
        sums = { status: row.status, asset, ramps: 0, received: ZERO, delivered: ZERO, gas: ZERO };
        this.sums.set(key, sums);
      }
      if (!touched.has(key)) {
        touched.add(key);
        sums.ramps += 1;
      }
      return sums;
    };
    if (row.assetFrom && row.amountFrom) {
      const sums = entry(row.assetFrom);
      sums.received = add(sums.received, row.amountFrom);
    }
    if (row.assetTo && row.amountTo) {
      const sums = entry(row.assetTo);
      sums.delivered = add(sums.delivered, row.amountTo);
    }
    if (row.gasAsset && row.gasAmount) {
      const sums = entry(row.gasAsset);
      sums.gas = add(sums.gas, row.gasAmount);
    }
  }

  /** Sorted by status, then asset. */
  entries(): StatementTotal[] {
    return [...this.sums.values()]
      .sort((a, b) => a.status.localeCompare(b.status) || a.asset.localeCompare(b.asset))
      .map((sums) => ({
        status: sums.status,
        asset: sums.asset,
        ramps: sums.ramps,
        received: formatFraction(sums.received, 18),
        delivered: formatFraction(sums.delivered, 18),
        gas: formatFraction(sums.gas, 18),
      }));
  }
}

// ---------------------------------------------------------------------------------------------- CSV

/** The ramp columns, in order; a CSV line starts with `record` (ramp or total) and ends with the total columns. */
export const ROW_COLUMNS = [
  'workflowId',
  'direction',
  'status',
  'endUserId',
  'orderReference',
  'depositTransactionId',
  'orderId',
  'webhookIds',
  'assetFrom',
  'amountFrom',
  'assetTo',
  'amountTo',
  'rate',
  'quotedAmountFrom',
  'quotedTargetAmount',
  'quotedRate',
  'quoteExpiresAt',
  'difference',
  'differencePercent',
  'executedAfterExpiry',
  'gasAsset',
  'gasAmount',
  'exceptions',
  'startedAt',
  'endedAt',
  'claimedAt',
  'closedAt',
  'reconciled',
  'reconciliation',
] as const satisfies readonly (keyof StatementRow)[];
export const TOTAL_COLUMNS = ['asset', 'ramps', 'received', 'delivered', 'gas'] as const;
export const CSV_HEADER = ['record', ...ROW_COLUMNS, ...TOTAL_COLUMNS];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
type CsvValue = string | number | boolean | readonly string[] | null;

function csvField(value: CsvValue): string {
  const text = value === null ? '' : typeof value === 'object' ? value.join(' ') : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: readonly CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;

export const csvRowLine = (row: StatementRow): string =>
  csvLine(['ramp', ...ROW_COLUMNS.map((column) => row[column]), ...TOTAL_COLUMNS.map(() => null)]);

export const csvTotalLine = (total: StatementTotal): string =>
  csvLine([
    'total',
    ...ROW_COLUMNS.map((column) => (column === 'status' ? total.status : null)),
    ...TOTAL_COLUMNS.map((column) => total[column]),
  ]);
