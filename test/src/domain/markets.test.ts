import {
  type Conversion,
  marketException,
  type MarketRules,
  toleranceFor,
} from '../../../src/domain/markets';
import { parseMarkets, vocabularyMarkets } from '../../../src/config/markets';

const rules: MarketRules = parseMarkets(
  'MXN>USDT@TRX min=100 max=500000; USDT@TRX>MXN min=10 tolerance=0.5%',
  '2',
);

const offRamp = (token: string | null, chain: string | null, amount: string | null): Conversion => ({
  direction: 'off-ramp',
  fiat: null,
  token,
  chain,
  amount,
});

describe('markets', () => {
  test('RAMP_MARKETS parses corridors, limits and tolerances; a market without one takes the default', () => {
    expect(rules).toEqual({
      markets: [
        {
          direction: 'on-ramp',
          fiat: 'MXN',
          token: 'USDT',
          chain: 'TRX',
          minimum: '100',
          maximum: '500000',
          tolerancePercent: '2',
        },
        {
          direction: 'off-ramp',
          fiat: 'MXN',
          token: 'USDT',
          chain: 'TRX',
          minimum: '10',
          tolerancePercent: '0.5',
        },
      ],
      tolerancePercent: '2',
    });
    expect(vocabularyMarkets().markets).toHaveLength(8);
    expect(vocabularyMarkets().tolerancePercent).toBe('1');
  });

  test('every bad entry is reported at once, naming the entry', () => {
    expect(() =>
      parseMarkets(
        'MXN>USDT@XYZ; EUR>USDT@TRX; USDT@TRX>MXN min=ten; USDT@TRX>MXN; MXN>USDC@TRX tolerance=1; MXN>usdt@TRX fee=1',
      ),
    ).toThrow(
      [
        'entry 1 "MXN>USDT@XYZ": chain XYZ is not one of ETH, TRX',
        'entry 2 "EUR>USDT@TRX": fiat EUR is not one of MXN',
        'entry 3 "USDT@TRX>MXN min=ten": min must be a decimal such as 10 or 0.5',
        'entry 4 "USDT@TRX>MXN": USDT@TRX>MXN is listed twice',
        'entry 5 "MXN>USDC@TRX tolerance=1": tolerance must be a percentage such as 1% or 0.5%',
        'entry 6 "MXN>usdt@TRX fee=1": token usdt is not an upper-case asset code',
      ].join('; '),
    );
    expect(() => parseMarkets('USDT@TRX>MXN min=10 max=5')).toThrow(
      'entry 1 "USDT@TRX>MXN min=10 max=5": min is over max',
    );
    expect(() => parseMarkets('tolerance=1%')).toThrow('a market is FIAT>TOKEN@CHAIN');
    expect(() => parseMarkets('USDT>MXN')).toThrow('the crypto side is TOKEN@CHAIN');
  });

  test('a conversion without a market, under the minimum or over the maximum is an exception by name', () => {
    expect(marketException(rules, offRamp('USDT', 'TRX', '50'))).toBeUndefined();
    expect(marketException(rules, offRamp('USDT', 'TRX', '9.99'))).toEqual({
      reason: 'below_minimum',
      message: '9.99 USDT is under the minimum 10 USDT of USDT@TRX>MXN',
    });
    expect(marketException(rules, offRamp('DAI', 'TRX', '50'))).toEqual({
      reason: 'unsupported_market',
      message: 'The account has no off-ramp market for DAI on TRX (off-ramp markets: USDT@TRX>MXN)',
    });
    expect(marketException(rules, offRamp('USDT', 'ETH', '50'))?.reason).toBe('unsupported_market');
    expect(
      marketException(rules, {
        direction: 'on-ramp',
        fiat: 'MXN',
        token: 'USDT',
        chain: 'TRX',
        amount: '500000.01',
      }),
    ).toEqual({
      reason: 'above_maximum',
      message: '500000.01 MXN is over the maximum 500000 MXN of MXN>USDT@TRX',
    });
    // Nothing to judge before the token is known.
    expect(marketException(rules, offRamp(null, null, null))).toBeUndefined();
  });

  test("the tolerance is the conversion's market's, else the default", () => {
    expect(toleranceFor(rules, offRamp('USDT', 'TRX', '1'))).toBe('0.5');
    expect(toleranceFor(rules, offRamp('DAI', 'TRX', '1'))).toBe('2');
  });
});
