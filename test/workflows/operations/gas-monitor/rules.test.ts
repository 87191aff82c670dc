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
  test('the minimum alone decides, compared exactly', () => {
    expect(assessGas(check())).toEqual({ ...check(), low: false, reason: null });
    expect(assessGas(check({ balance: '30' }))).toMatchObject({ low: false, reason: null });
    expect(assessGas(check({ balance: '29.999999999999999999' }))).toMatchObject({
      low: true,
      reason: 'below-minimum',
    });
    const eth = check({
      network: 'networks/ethereum-mainnet',
      asset: 'ETH',
      balance: '0.0019',
      minimum: '0.002',
    });
    expect(assessGas(eth)).toMatchObject({ low: true, reason: 'below-minimum' });
  });

  test('no address on the network is low; no gas wallet known is never low', () => {
    expect(assessGas(check({ balance: null, shortfall: true }))).toMatchObject({
      low: true,
      reason: 'no-address',
    });
    const unknown = check({ gasWalletId: null, balance: null, error: 'no gas wallet known' });
    expect(assessGas(unknown)).toMatchObject({ low: false, reason: null, error: 'no gas wallet known' });
  });
});

describe('the gas-low alert and its resolution', () => {
  test('details carry the network, wallet and what was compared', () => {
    expect(gasAlertDetails(TRON, assessGas(check({ balance: '10' })))).toEqual({
      network: TRON,
      gasWalletId: 'gas-1',
      asset: 'TRX',
      balance: '10',
      minimum: '30',
      reason: 'below-minimum',
    });
  });

  test('the message says why the balance is low', () => {
    expect(gasAlertMessage(TRON, assessGas(check({ balance: '10' })))).toBe(
      'Gas wallet gas-1 holds 10 TRX on networks/tron-mainnet, below its minimum 30: fund it before deposits strand',
    );
    expect(gasAlertMessage(TRON, assessGas(check({ balance: null })))).toBe(
      'The gas wallet gas-1 has no address on networks/tron-mainnet: Autoswaps on it will strand',
    );
  });

  test('the resolution names the balance and the minimum', () => {
    expect(gasResolution(TRON, assessGas(check()))).toBe(
      'Gas wallet gas-1 holds 500 TRX on networks/tron-mainnet (minimum 30)',
    );
  });
});

describe('the monitor summary', () => {
  test('one line per network, in the order checked', () => {
    const low = { ...assessGas(check({ balance: '10' })), alert: 'raised' as const };
    const skipped = {
      ...assessGas(
        check({
          network: 'networks/ethereum-mainnet',
          asset: 'ETH',
          gasWalletId: null,
          balance: null,
          minimum: '0.002',
        }),
      ),
      alert: 'skipped' as const,
    };
    expect(summaryLine(low)).toBe('networks/tron-mainnet: 10 TRX (minimum 30) LOW, alert raised');
    expect(currentDetails({ checkedAt: AT, networks: [low, skipped] })).toBe(
      [
        'networks/tron-mainnet: 10 TRX (minimum 30) LOW, alert raised',
        'networks/ethereum-mainnet: ? ETH (minimum 0.002) ok, alert skipped',
      ].join('\n'),
    );
  });
});
