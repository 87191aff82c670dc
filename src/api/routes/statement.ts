/**
 * GET /v1/statement?from=&to=&format=json|csv: the settlement statement, streamed row by row as it is read (bounded
 * memory whatever the period). The first page is read before the answer starts, so a failure there is a proper
 * error answer; one later cuts the answer off (a JSON statement then lacks its totals, a CSV one its total lines).
 */
import { z } from 'zod';
import { parseStatementPeriod, type StatementItem } from '../../client/statement';
import { type StatementWriter, statementWriter } from '../../client/statement-formats';
import { CSV_HEADER, type StatementTotal } from '../../client/statement-rows';
import { decimal, isoDateTime, statementRowSchema, text } from '../../ledger/views';
import { component, describes } from '../components';
import { endpoint, input, Streamed } from '../endpoint';

const statementRow = component('StatementRow', statementRowSchema);
const statementTotal = component(
  'StatementTotal',
  describes<StatementTotal>()(
    z.strictObject({
      status: text,
      asset: text,
      ramps: z.number().meta({ description: 'Ramps of this status that moved this asset' }),
      received: decimal.meta({ description: 'What end users sent of it' }),
      delivered: decimal.meta({ description: 'What end users received of it' }),
      gas: decimal.meta({ description: 'The gas paid in it' }),
    }),
  ),
);
const statement = component(
  'Statement',
  z.strictObject({
    data: z.strictObject({
      from: isoDateTime,
      to: isoDateTime,
      rows: z.array(statementRow),
      totals: z.array(statementTotal),
      rowCount: z.number(),
    }),
  }),
  'GET /v1/statement?format=json: the rows, then the totals (streamed; a statement cut off mid-way lacks its totals)',
);

const statementPeriod = z.strictObject({
  from: z.iso
    .datetime({ offset: true })
    .meta({ description: 'ISO 8601: ramps whose process closed at or after this' }),
  to: z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601, after from: and before this' }),
  format: z.enum(['json', 'csv']).optional().meta({ description: 'json (default) or csv' }),
});

/** The statement's text: its start, then each item as it is read; the reader is closed however it ends. */
async function* statementText(
  writer: StatementWriter,
  first: IteratorResult<StatementItem>,
  items: AsyncGenerator<StatementItem>,
): AsyncGenerator<string> {
  try {
    yield writer.start();
    for (let next = first; !next.done; next = await items.next()) yield writer.item(next.value);
  } finally {
    await items.return(undefined);
  }
}

export const statementEndpoints = [
  endpoint({
    method: 'get',
    path: '/v1/statement',
    operationId: 'statement',
    summary:
      "The settlement statement of a period: a row per ramp booked in it, with reconciliation's last read of the operator, then totals per status and asset (streamed)",
    tag: 'Ramps',
    query: input('statement period', statementPeriod),
    answers: {
      200: {
        schema: statement,
        description: 'The statement (format=json); format=csv answers text/csv',
        bare: true,
        csv: `RFC 4180 lines: the header ${CSV_HEADER.join(',')}; one line per ramp (record=ramp), then one per total (record=total: status, asset, ramps, received, delivered, gas)`,
      },
    },
    errors: [400],
    handle: async ({ query: { from, to, format = 'json' } }, ramp) => {
      const period = parseStatementPeriod({ from, to });
      const items = ramp.statement(period);
      // The first page before the answer starts: a failure there is still an error answer.
      const first = await items.next();
      const writer = statementWriter(format, period);
      const headers: Record<string, string> = { 'content-type': writer.contentType };
      if (format === 'csv')
        headers['content-disposition'] = `attachment; filename="statement-${period.from}-${period.to}.csv"`;
      return new Streamed(200, headers, statementText(writer, first, items));
    },
  }),
];
