import { searchedRampStatus } from '../../../src/domain/search-attributes';
import { OFF_RAMP_STATUSES } from '../../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../../workflows/ramps/onramp/types';

describe('the RampStatus a ramp shows in visibility', () => {
  test('every ordinary step shows in-progress; what a person searches for shows as itself', () => {
    const shown = (statuses: readonly string[]) =>
      Object.fromEntries(statuses.map((status) => [status, searchedRampStatus(status)]));
    expect(shown(OFF_RAMP_STATUSES)).toEqual({
      'awaiting-deposit-confirmation': 'in-progress',
      'awaiting-sweep': 'in-progress',
      'awaiting-sweep-confirmation': 'in-progress',
      'awaiting-settlement': 'in-progress',
      stuck: 'stuck',
      exception: 'exception',
      settled: 'settled',
      failed: 'failed',
      'timed-out': 'timed-out',
    });
    expect(shown(ON_RAMP_STATUSES)).toEqual({
      'awaiting-order': 'in-progress',
      'awaiting-execution': 'in-progress',
      'awaiting-deposit': 'in-progress',
      'awaiting-confirmation': 'in-progress',
      exception: 'exception',
      settled: 'settled',
      expired: 'expired',
      failed: 'failed',
      'timed-out': 'timed-out',
      unclaimed: 'unclaimed',
    });
  });
});
