/**
 * The settlement statement: one row per ramp booked in a period, read from the ledger in the order it was booked,
 * each with what reconciliation last found at the operator, then the totals per status and asset. A generator: the
 * caller writes each row out as it comes, so memory holds one page, whatever the period.
 */
import { bookedRows } from '../ledger/statement';
import type { StatementRow } from '../ledger/views';
import type { ClientContext } from './context';
import { InvalidInputError } from './errors';
import { type StatementTotal, StatementTotals } from './statement-rows';

export type { StatementRow } from '../ledger/views';
export type { StatementTotal } from './statement-rows';

export interface StatementPeriod {
  /** ISO 8601; ramps booked at or after this instant. */
  from: string;
  /** ISO 8601; and before this one. */
  to: string;
}

export type StatementItem =
  { kind: 'row'; row: StatementRow } | { kind: 'totals'; totals: StatementTotal[]; rows: number };

/** The period as canonical ISO instants; InvalidInputError naming each problem. */
export function parseStatementPeriod(period: Partial<StatementPeriod>): StatementPeriod {
  const issues: string[] = [];
  const instant = (name: 'from' | 'to'): string | undefined => {
    const text = period[name];
    const ms = typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
    issues.push(`${name}: must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z`);
    return undefined;
  };
  const from = instant('from');
  const to = instant('to');
  if (from && to && from >= to) issues.push('to: must be after from');
  if (issues.length > 0) throw new InvalidInputError('Invalid statement period', issues);
  return { from: from!, to: to! };
}

export async function* statement(
  context: ClientContext,
  period: Partial<StatementPeriod>,
): AsyncGenerator<StatementItem> {
  const parsed = parseStatementPeriod(period);
  const totals = new StatementTotals();
  let rows = 0;
  for await (const row of bookedRows(context.ledger, parsed)) {
    totals.add(row);
    rows += 1;
    yield { kind: 'row', row };
  }
  yield { kind: 'totals', totals: totals.entries(), rows };
}
