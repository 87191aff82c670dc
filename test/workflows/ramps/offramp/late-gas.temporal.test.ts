/**
 * Gas reported after its off-ramp ended (sandbox + dev server + ledger): the routers' hop re-reads the top-up at the
 * operator, finds its off-ramp closed (it is never run again) and books the gas into the ramp's view and statement
 * row, once.
 */
import { sql } from 'kysely';
import pino from 'pino';
import { snapshotReads } from '../../../../activities/shared/snapshots';
import { offRampWorkflowId } from '../../../../src/domain/ids';
import { rampGas } from '../../../../src/domain/ramp-gas';
import { createHop } from '../../../../src/routing/hop';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  type RampStack,
  useRampStacks,
} from '../../../helpers/ramp-stack';

describe('gas reported after its off-ramp ended (sandbox + dev server + ledger)', () => {
  const stacks = useRampStacks();

  async function bookedRow(stack: RampStack, workflowId: string) {
    return stack.database.db
      .selectFrom('bookings')
      .select(['row', 'reconciled'])
      .where('workflow_id', '=', workflowId)
      .executeTakeFirstOrThrow();
  }

  test("a top-up whose event came after the off-ramp ended: its gas is booked into the ramp's view and row, once", async () => {
    const stack = await stacks.start();
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const ended = await offRampEnded(stack, depositId);
    const workflowId = offRampWorkflowId(depositId);
    const topUp = stack.sandbox.state.transactions.get(ended.gasTopUp?.id ?? '');
    const sweepFee = stack.sandbox.state.transactions.get(ended.sweep?.id ?? '')?.fee ?? undefined;
    expect(topUp?.fee).toBeTruthy();
    expect(sweepFee).toBeTruthy();

    // Booked as by a ramp the top-up's event never reached: the sweep's gas alone.
    const sweepOnly = rampGas(undefined, sweepFee);
    await stack.database.db
      .updateTable('ramps')
      .set({ view: sql`view || jsonb_build_object('gas', ${JSON.stringify(sweepOnly)}::jsonb)` })
      .where('workflow_id', '=', workflowId)
      .execute();
    await stack.database.db
      .updateTable('bookings')
      .set({
        row: sql`row || jsonb_build_object('gasAmount', ${sweepFee!.amount}::text)`,
        reconciled: 'matches',
      })
      .where('workflow_id', '=', workflowId)
      .execute();

    const before = await stack.ramp.getOffRamp(depositId);
    // The top-up's event, at last: the routers' hop (no status forwarded before) re-reads and forwards it.
    const hop = createHop({
      reads: snapshotReads(stack.operator),
      temporal: stacks.client,
      logger: pino({ level: 'silent' }),
      ledger: stack.database.db,
    });
    const routeTopUp = () =>
      hop.routeEvent(
        { kind: 'transaction', resourceId: topUp!.id, timings: stack.timings },
        { taskQueue: stack.worker.taskQueue },
      );
    const routed = await routeTopUp();
    expect(routed).toMatchObject({ outcome: { workflowId, closed: { status: 'settled' } } });

    const both = rampGas(topUp!.fee!, sweepFee)!;
    const view = await stack.ramp.getOffRamp(depositId);
    expect(view.gas).toEqual(both);
    expect(Date.parse(view.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(await bookedRow(stack, workflowId)).toMatchObject({
      row: { gasAsset: both.total!.asset, gasAmount: both.total!.amount },
      reconciled: 'unchecked',
    });
    const statement = [];
    for await (const item of stack.ramp.statement({
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    }))
      if (item.kind === 'row') statement.push(item.row);
    expect(statement.find((row) => row.workflowId === workflowId)?.gasAmount).toBe(both.total!.amount);

    // Delivered again (the operator retries): booked already, nothing changes.
    await stack.database.db
      .updateTable('bookings')
      .set({ reconciled: 'matches' })
      .where('workflow_id', '=', workflowId)
      .execute();
    await routeTopUp();
    expect(await bookedRow(stack, workflowId)).toMatchObject({
      row: { gasAmount: both.total!.amount },
      reconciled: 'matches',
    });
  });
});
