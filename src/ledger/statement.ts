/**
 * The settlement statement's rows: every ramp booked in a period, in the order it was booked, read from the ledger
 * a page at a time (keyset paging on the booking instant), each with what reconciliation last found.
 */
import { sql } from 'kysely';
import type { Ledger } from '../database/connection';
import type { BookedRow, Reconciled, StatementRow } from './views';

/**
 * Rows read at once: large enough that a page is one index range scan among few round trips, small enough that a
 * statement of any length holds one page in memory.
 */
export const STATEMENT_PAGE_SIZE = 1_000;

/** The rows booked at or after `from` and before `to`, one page in memory at a time. */
export async function* bookedRows(
  db: Ledger,
  period: { from: string; to: string },
): AsyncGenerator<StatementRow> {
  let after: { closedAt: string; workflowId: string } | undefined;
  for (;;) {
    let select = db
      .selectFrom('bookings')
      .select(['workflow_id', 'closed_at', 'row', 'reconciled', 'reconciliation'])
      .where('closed_at', '>=', period.from)
      .where('closed_at', '<', period.to)
      .orderBy('closed_at')
      .orderBy('workflow_id')
      .limit(STATEMENT_PAGE_SIZE);
    if (after)
      select = select.where(
        sql<boolean>`(closed_at, workflow_id) > (${after.closedAt}::timestamptz, ${after.workflowId})`,
      );
    const page = await select.execute();
    for (const booked of page)
      yield {
        ...(booked.row as BookedRow),
        reconciled: booked.reconciled as Reconciled,
        reconciliation: booked.reconciliation,
      };
    const last = page.at(-1);
    if (!last || page.length < STATEMENT_PAGE_SIZE) return;
    after = { closedAt: last.closed_at, workflowId: last.workflow_id };
  }
}
