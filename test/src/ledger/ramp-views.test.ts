/**
 * A ramp's exceptions keep one shape wherever a client reads them: a list, empty when the ramp met none, in its view
 * (GET /v1/on-ramps/..., /v1/off-ramps/...) and in its statement row, whether its state ever recorded one or not.
 */
import { bookedRow, offRampView, onRampView, type RampState } from '../../../src/ledger/ramp-views';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';

const AT = '2026-01-01T00:05:00.000Z';
const offRamp = {
  depositTransactionId: 'tx-1',
  status: 'settled',
  step: 'Settled',
  endUserId: 'u1',
  unattributed: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: AT,
} as OffRampState;
const onRamp = {
  orderReference: 'ord-1',
  status: 'settled',
  step: 'Settled',
  endUserId: 'u1',
  unattributed: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: AT,
} as OnRampState;
const offQuote = { reason: 'off_quote' as const, message: 'Executed 4 % off its quote', seenAt: AT };

describe('exceptions in views and statement rows', () => {
  test('a ramp that met none shows an empty list in both, never null or nothing', () => {
    const ramps: RampState[] = [
      { direction: 'off-ramp', workflowId: 'offramp/tx-1', state: offRamp },
      { direction: 'on-ramp', workflowId: 'onramp/ord-1', state: onRamp },
    ];
    expect(offRampView('offramp/tx-1', offRamp, AT).exceptions).toEqual([]);
    expect(onRampView('onramp/ord-1', onRamp, AT).exceptions).toEqual([]);
    for (const ramp of ramps) expect(bookedRow(ramp, AT, []).exceptions).toEqual([]);
  });

  test('one met is listed in both: the exception in the view, its reason in the row', () => {
    const state = { ...offRamp, exceptions: [offQuote] };
    expect(offRampView('offramp/tx-1', state, AT).exceptions).toEqual([offQuote]);
    expect(
      bookedRow({ direction: 'off-ramp', workflowId: 'offramp/tx-1', state }, AT, []).exceptions,
    ).toEqual(['off_quote']);
  });
});
