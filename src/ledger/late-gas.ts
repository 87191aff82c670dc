/**
 * Gas the operator reports after its off-ramp ended: a gas top-up whose event came last (a receiver outage the
 * operator's retries outlived) reaches a process that has closed, which is never run again. Its fee goes into the
 * off-ramp's view and booked row instead, so the statement books what the operator charged; the row is then checked
 * by reconciliation again.
 */
import { sql } from 'kysely';
import type { Ledger } from '../database/connection';
import { type GasSpent, rampGas } from '../domain/ramp-gas';
import type { OffRampView } from './views';

/** The roles whose transactions the gas wallet pays for. */
export type GasRole = 'gasTopUp' | 'sweep';

/**
 * Books a fee reported for an ended off-ramp's top-up or sweep: `booked` when its view and row now hold it,
 * `unchanged` when they already did, `not-booked` when the ramp has no booked row (it is booked from its process's
 * result, which the ledger's repair reads).
 */
export async function bookLateGas(
  db: Ledger,
  workflowId: string,
  role: GasRole,
  fee: GasSpent,
): Promise<'booked' | 'unchanged' | 'not-booked'> {
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('ramps')
      .innerJoin('bookings', 'bookings.workflow_id', 'ramps.workflow_id')
      .select('ramps.view')
      .where('ramps.workflow_id', '=', workflowId)
      .forUpdate()
      .executeTakeFirst();
    if (!found) return 'not-booked';
    const booked = (found.view as OffRampView).gas ?? {};
    const spent = role === 'gasTopUp' ? booked.topUp : booked.sweep;
    if (spent?.asset === fee.asset && spent.amount === fee.amount) return 'unchanged';
    const gas = rampGas(role === 'gasTopUp' ? fee : booked.topUp, role === 'sweep' ? fee : booked.sweep);
    const at = new Date().toISOString();
    await trx
      .updateTable('ramps')
      .set({
        view: sql`view || jsonb_build_object('gas', ${JSON.stringify(gas)}::jsonb, 'updatedAt', ${at}::text)`,
        updated_at: at,
      })
      .where('workflow_id', '=', workflowId)
      .execute();
    await trx
      .updateTable('bookings')
      .set({
        row: sql`row || jsonb_build_object('gasAsset', ${gas?.total?.asset ?? null}::text, 'gasAmount', ${gas?.total?.amount ?? null}::text)`,
        reconciled: 'unchecked',
        reconciliation: '',
        checked_at: null,
      })
      .where('workflow_id', '=', workflowId)
      .execute();
    return 'booked';
  });
}
