import {
  assessGas,
  currentDetails,
  gasAlertDetails,
  gasAlertMessage,
  gasResolution,
  summaryLine,
} from '../../../../workflows/operations/gas-monitor/rules';
import type { GasCheck } from '../../../../workflows/operations/gas-monitor/types';

const TRON = 'networks/tron-mainnet';
const AT = '2026-01-01T00:00:00.000Z';
const HEADROOM = { autoswapsAhead: 3, autoswapCosts: { ETH: '0.003', TRX: '45' } };

function check(overrides: Partial<GasCheck> = {}): GasCheck {
  return {
    gasWalletId: 'gas-1',
    network: TRON,
    asset: 'TRX',
    balance: '500',
    minimum: '30',
    shortfall: false,
    checkedAt: AT,
    ...overrides,
  };
}

describe('assessing the gas wallet', () => {
  test('needs the larger of its minimum and the Autoswaps ahead, computed exactly', () => {
    expect(assessGas(check(), HEADROOM)).toEqual({
      ...check(),
      costPerAutoswap: '45',
      autoswapsAhead: 3,
      required: '135',
      low: false,
      reason: null,
    });
    const eth = check({ network: 'networks/ethereum-mainnet', asset: 'ETH', balance: '1', minimum: '0.002' });
    expect(assessGas(eth, HEADROOM).required).toBe('0.009');
    expect(assessGas(check({ minimum: '200' }), HEADROOM).required).toBe('200');
  });

  test('with no Autoswaps ahead or no known cost, the minimum alone', () => {
    expect(assessGas(check(), { ...HEADROOM, autoswapsAhead: 0 })).toMatchObject({
      required: '30',
      low: false,
    });
    expect(assessGas(check({ asset: 'unknown' }), HEADROOM)).toMatchObject({
      costPerAutoswap: null,
      required: '30',
    });
  });

  test('below the minimum comes before below the Autoswaps ahead', () => {
    expect(assessGas(check({ balance: '29.99' }), HEADROOM)).toMatchObject({
      low: true,
      reason: 'below-minimum',
    });
    expect(assessGas(check({ balance: '134.9' }), HEADROOM)).toMatchObject({
      low: true,
      reason: 'below-autoswaps-ahead',
    });
    expect(assessGas(check({ balance: '135' }), HEADROOM)).toMatchObject({ low: false, reason: null });
  });

  test('no address on the network is low; no gas wallet known is never low', () => {
    expect(assessGas(check({ balance: null, shortfall: true }), HEADROOM)).toMatchObject({
      low: true,
      reason: 'no-address',
    });
    const unknown = check({ gasWalletId: null, balance: null, error: 'no gas wallet known' });
    expect(assessGas(unknown, HEADROOM)).toMatchObject({
      low: false,
      reason: null,
      error: 'no gas wallet known',
    });
  });
});

describe('the gas-low alert and its resolution', () => {
  test('details carry the network, wallet and what was compared', () => {
    const assessment = assessGas(check({ balance: '100' }), HEADROOM);
    expect(gasAlertDetails(TRON, assessment)).toEqual({
      network: TRON,
      gasWalletId: 'gas-1',
      asset: 'TRX',
      balance: '100',
      minimum: '30',
      required: '135',
      autoswapsAhead: 3,
      costPerAutoswap: '45',
      reason: 'below-autoswaps-ahead',
    });
  });

  test('the message says why the balance is low', () => {
    expect(gasAlertMessage(TRON, assessGas(check({ balance: '100' }), HEADROOM))).toBe(
      'Gas wallet gas-1 holds 100 TRX on networks/tron-mainnet, below 135 (3 Autoswaps at 45): fund it before deposits strand',
    );
    expect(gasAlertMessage(TRON, assessGas(check({ balance: '10', minimum: '200' }), HEADROOM))).toBe(
      'Gas wallet gas-1 holds 10 TRX on networks/tron-mainnet, below 200 (the minimum): fund it before deposits strand',
    );
    expect(gasAlertMessage(TRON, assessGas(check({ balance: null }), HEADROOM))).toBe(
      'The gas wallet gas-1 has no address on networks/tron-mainnet: Autoswaps on it will strand',
    );
  });

  test('the resolution names the balance and what it needs', () => {
    expect(gasResolution(TRON, assessGas(check(), HEADROOM))).toBe(
      'Gas wallet gas-1 holds 500 TRX on networks/tron-mainnet (needs 135)',
    );
  });
});

describe('the monitor summary', () => {
  test('one line per network, in the order checked', () => {
    const low = { ...assessGas(check({ balance: '100' }), HEADROOM), alert: 'raised' as const };
    const skipped = {
      ...assessGas(
        check({
          network: 'networks/ethereum-mainnet',
          asset: 'ETH',
          gasWalletId: null,
          balance: null,
          minimum: '0.002',
        }),
        HEADROOM,
      ),
      alert: 'skipped' as const,
    };
    expect(summaryLine(low)).toBe('networks/tron-mainnet: 100 TRX (needs 135) LOW, alert raised');
    expect(currentDetails({ checkedAt: AT, networks: [low, skipped] })).toBe(
      [
        'networks/tron-mainnet: 100 TRX (needs 135) LOW, alert raised',
        'networks/ethereum-mainnet: ? ETH (needs 0.009) ok, alert skipped',
      ].join('\n'),
    );
  });
});
