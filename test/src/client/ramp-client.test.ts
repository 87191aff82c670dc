import type { Connection } from '@temporalio/client';
import type { ClientContext } from '../../../src/client/context';
import { QuoteExpiredError } from '../../../src/client/errors';
import { assertQuoteValid, isQuoteValid, requestOf } from '../../../src/client/quote';
import { processIdsOf, RampClient } from '../../../src/client/ramp-client';
import type { Database } from '../../../src/database/connection';
import { DEFAULT_PROCESS_IDS } from '../../../src/domain/ids';
import type { QuoteResult } from '../../../workflows/quote/types';

const timings = {} as ClientContext['timings'];

describe('process IDs of the typed client', () => {
  test('default to DEFAULT_PROCESS_IDS', () => {
    expect(processIdsOf({})).toEqual(DEFAULT_PROCESS_IDS);
  });

  test('processIds win over the base', () => {
    const processIds = { accountSetupWorkflowId: 'a2' };
    expect(processIdsOf({ processIds })).toEqual(processIds);
    expect(processIdsOf({}, processIds)).toEqual(processIds);
  });

  test('the constructor keeps its options and exposes the IDs it uses', () => {
    const connection = {} as Connection;
    const options = {
      connection,
      database: { db: {} } as Database,
      namespace: 'ns',
      taskQueue: 'q',
      timings,
    };
    expect(new RampClient(options).processIds).toEqual(DEFAULT_PROCESS_IDS);
    expect(
      new RampClient({ ...options, processIds: { ...DEFAULT_PROCESS_IDS, accountSetupWorkflowId: 'a3' } })
        .processIds.accountSetupWorkflowId,
    ).toBe('a3');
  });
});

describe('quote validity', () => {
  const now = () => 1_000;
  const at = (ms: number) => ({ expiresAt: new Date(ms).toISOString() });

  test('a quote is valid while now + minValidityMs is before expiresAt', () => {
    expect(isQuoteValid({ now }, at(1_001))).toBe(true);
    expect(isQuoteValid({ now }, at(1_000))).toBe(false);
    expect(isQuoteValid({ now }, at(1_500), 500)).toBe(false);
    expect(isQuoteValid({ now }, { expiresAt: 'soon' })).toBe(false);
  });

  test('assertQuoteValid throws QuoteExpiredError naming expiresAt', () => {
    expect(() => assertQuoteValid({ now }, at(2_000))).not.toThrow();
    expect(() => assertQuoteValid({ now }, at(500))).toThrow(QuoteExpiredError);
  });

  test('a requote asks for the same conversion, with the chain of its direction only', () => {
    const base = { coinTo: 'USDT', amountFrom: '10', targetAmount: '1', expiresAt: 'x', quotedAt: 'y' };
    const onRamp: QuoteResult = {
      ...base,
      direction: 'on-ramp',
      coinFrom: 'MXN',
      chainTo: 'TRX',
      chainFrom: 'ETH',
    };
    expect(requestOf(onRamp)).toEqual({
      direction: 'on-ramp',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'TRX',
      amountFrom: '10',
    });
    const offRamp: QuoteResult = {
      ...base,
      direction: 'off-ramp',
      coinFrom: 'USDT',
      coinTo: 'MXN',
      chainFrom: 'TRX',
    };
    expect(requestOf(offRamp)).toEqual({
      direction: 'off-ramp',
      coinFrom: 'USDT',
      coinTo: 'MXN',
      chainFrom: 'TRX',
      amountFrom: '10',
    });
  });
});
