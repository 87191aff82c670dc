import { loadWorkflowTimings } from '../../../src/config/timings';

describe('workflow timings', () => {
  test('an outcome attempt gets CLIENT_WEBHOOK_TIMEOUT and room to sign, connect and report back', () => {
    expect(loadWorkflowTimings({ CLIENT_WEBHOOK_TIMEOUT: '2s' }).outcomeDelivery?.attemptTimeoutMs).toBe(
      7_000,
    );
  });

  test('the durations no setting reads are the fixed ones', () => {
    expect(loadWorkflowTimings({})).toMatchObject({
      quoteTtlMs: 25_000,
      unknownResourceTimeoutMs: 600_000,
      outcomeDelivery: { retryInitialMs: 5_000, retryMaximumMs: 3_600_000, retryForMs: 86_400_000 },
    });
  });

  test('a duration that is not one is refused by name', () => {
    expect(() => loadWorkflowTimings({ RAMP_STEP_DEADLINE: 'soon' })).toThrow(
      /RAMP_STEP_DEADLINE: "soon" is not a duration/,
    );
  });

  test('the claim window and the markets travel with the timings; bad markets are refused naming the entry', () => {
    const timings = loadWorkflowTimings({ ONRAMP_CLAIM_WINDOW: '2h', RAMP_MARKETS: 'USDT@TRX>MXN min=10' });
    expect(timings.onRampClaimWindowMs).toBe(7_200_000);
    expect(timings.markets?.markets).toEqual([
      {
        direction: 'off-ramp',
        fiat: 'MXN',
        token: 'USDT',
        chain: 'TRX',
        minimum: '10',
        tolerancePercent: '1',
      },
    ]);
    expect(loadWorkflowTimings({}).onRampClaimWindowMs).toBe(7 * 86_400_000);
    expect(loadWorkflowTimings({}).markets?.markets).toHaveLength(8);
    expect(() => loadWorkflowTimings({ RAMP_MARKETS: 'USDT@TRX>MXN; USDT@SOL>MXN' })).toThrow(
      /RAMP_MARKETS: entry 2 "USDT@SOL>MXN": chain SOL is not one of ETH, TRX/,
    );
  });

  test('RAMP_QUOTE_TOLERANCE is the tolerance of every market without its own', () => {
    const { markets } = loadWorkflowTimings({
      RAMP_QUOTE_TOLERANCE: '0.25%',
      RAMP_MARKETS: 'USDT@TRX>MXN tolerance=2%; MXN>USDT@TRX',
    });
    expect(markets?.tolerancePercent).toBe('0.25');
    expect(markets?.markets.map((market) => market.tolerancePercent)).toEqual(['2', '0.25']);
    expect(
      loadWorkflowTimings({ RAMP_QUOTE_TOLERANCE: '3%' }).markets?.markets.every(
        (market) => market.tolerancePercent === '3',
      ),
    ).toBe(true);
    expect(() => loadWorkflowTimings({ RAMP_QUOTE_TOLERANCE: '0.5' })).toThrow(
      /RAMP_QUOTE_TOLERANCE: must be a percentage such as 1% or 0.5%/,
    );
  });
});
