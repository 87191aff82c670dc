/**
 * A ramp's booked row against a real ledger: its last write books it; a later last write of the same ramp (a snapshot
 * came in while the first ran) books it again in the same period, and a retried or older write changes nothing.
 */
import { writeRamp } from '../../../src/ledger/ramps';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await freshTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const WORKFLOW_ID = 'offramp/tx-booked';
const ENDED = '2026-01-01T00:05:00.000Z';
const sweepFee = { asset: 'TRX', amount: '30' };
const settled = {
  depositTransactionId: 'tx-booked',
  status: 'settled',
  step: 'Settled',
  endUserId: 'u1',
  unattributed: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: ENDED,
  gas: { sweep: sweepFee, total: sweepFee },
} as OffRampState;
const withTopUp = {
  ...settled,
  gas: { topUp: { asset: 'TRX', amount: '15' }, sweep: sweepFee, total: { asset: 'TRX', amount: '45' } },
} as OffRampState;

const lastWrite = (state: OffRampState, revision: number, closedAt: string) =>
  writeRamp(database.db, {
    ramp: { direction: 'off-ramp', workflowId: WORKFLOW_ID, state },
    revision,
    raised: [],
    retryForMs: 0,
    at: closedAt,
    closedAt,
  });

const booked = () =>
  database.db
    .selectFrom('bookings')
    .select(['closed_at', 'row', 'reconciled', 'checked_at'])
    .where('workflow_id', '=', WORKFLOW_ID)
    .executeTakeFirstOrThrow();

test('a later last write books the ramp again in its period; a retried or older one changes nothing', async () => {
  await lastWrite(settled, 3, ENDED);
  await database.db
    .updateTable('bookings')
    .set({ reconciled: 'matches', checked_at: ENDED })
    .where('workflow_id', '=', WORKFLOW_ID)
    .execute();
  // The same write again (a retried activity): the row stays as checked.
  await lastWrite(settled, 3, '2026-01-01T00:05:01.000Z');
  expect(await booked()).toMatchObject({ row: { gasAmount: '30', closedAt: ENDED }, reconciled: 'matches' });

  // One more last write with the top-up that came in meanwhile: booked again, in the same period, to be checked.
  await lastWrite(withTopUp, 4, '2026-01-01T00:05:02.000Z');
  const again = await booked();
  expect(again).toMatchObject({
    row: { gasAmount: '45', closedAt: ENDED },
    reconciled: 'unchecked',
    checked_at: null,
  });
  expect(new Date(again.closed_at).toISOString()).toBe(ENDED);

  // An older write arriving late changes neither the view nor the row.
  await lastWrite(settled, 3, '2026-01-01T00:05:03.000Z');
  expect((await booked()).row).toMatchObject({ gasAmount: '45' });
});
