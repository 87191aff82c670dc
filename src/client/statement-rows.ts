/**
 * The settlement statement's pure parts on the client's side: the totals per asset and status, added row by row,
 * and the CSV form. Every amount is a decimal string.
 */
import { formatFraction, type Fraction, fractionOf } from '../domain/decimal';
import type { StatementRow } from '../ledger/views';

/** One total: ramps of a status that moved an asset, what users sent of it, what they received, the gas paid in it. */
export interface StatementTotal {
  status: string;
  asset: string;
  ramps: number;
  received: string;
  delivered: string;
  gas: string;
}

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
