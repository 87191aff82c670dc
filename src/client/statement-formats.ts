/**
 * The settlement statement written out as it is read: JSON (`{ data: { from, to, rows, totals, rowCount } }`) or CSV
 * (one line per ramp, then one per total). Shared by GET /v1/statement and `npm run statement`.
 */
import type { StatementItem, StatementPeriod } from './statement';
import { CSV_HEADER, csvLine, csvRowLine, csvTotalLine } from './statement-rows';

export const STATEMENT_FORMATS = ['json', 'csv'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export interface StatementWriter {
  contentType: string;
  /** What comes before the first row. */
  start(): string;
  /** A row, or the totals that end the statement. */
  item(item: StatementItem): string;
}

export function statementWriter(format: StatementFormat, period: StatementPeriod): StatementWriter {
  if (format === 'csv')
    return {
      contentType: 'text/csv; charset=utf-8',
      start: () => csvLine(CSV_HEADER),
      item: (item) => (item.kind === 'row' ? csvRowLine(item.row) : item.totals.map(csvTotalLine).join('')),
    };
  let rows = 0;
  return {
    contentType: 'application/json; charset=utf-8',
    start: () => `{"data":{"from":${JSON.stringify(period.from)},"to":${JSON.stringify(period.to)},"rows":[`,
    item(item) {
      if (item.kind === 'row') return `${rows++ > 0 ? ',' : ''}${JSON.stringify(item.row)}`;
      return `],"totals":${JSON.stringify(item.totals)},"rowCount":${item.rows}}}\n`;
    },
  };
}
