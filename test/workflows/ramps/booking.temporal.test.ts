/**
 * What the client books, on the real dev server with the sandbox over HTTP: the amounts a ramp executed against the
 * quote its end user was shown, the gas the operator reports, and each exception by name (event and incident, when
 * it is seen), whether the operator converts the ramp anyway or not.
 */
import { eventsOf as recordedEvents } from '../../helpers/database';
import { randomUUID } from 'node:crypto';
import { parseMarkets } from '../../../src/config/markets';
import { endUserWorkflowId, offRampWorkflowId, onRampWorkflowId } from '../../../src/domain/ids';
import type { OutcomeEventData } from '../../../src/domain/outcome-events';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import { recordHistory } from '../../helpers/histories';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  onRampEnded,
  type RampStack,
  sandboxCall,
  TRON,
  useRampStacks,
  waitFor,
} from '../../helpers/ramp-stack';

const MARKETS = parseMarkets(
  'USDT@TRX>MXN min=10; MXN>USDT@TRX min=100 max=5000; USDC@TRX>MXN; MXN>USDC@TRX',
);
/** 4 % under the sandbox's 17.25 MXN per USDT: beyond the 1 % tolerance. */
const MOVED_PRICE = '16.56';

/** The data of a ramp's outcome events of one type, as the ledger holds them. */
async function eventsOf(
  stack: RampStack,
  ramp: { depositTransactionId: string } | { orderReference: string },
  type: string,
): Promise<OutcomeEventData[]> {
  const workflowId =
    'depositTransactionId' in ramp
      ? offRampWorkflowId(ramp.depositTransactionId)
      : onRampWorkflowId(ramp.orderReference);
  return (await recordedEvents(stack.database.db, workflowId))
    .filter((record) => record.event.type === type)
    .map((record) => record.event.data as OutcomeEventData);
}
const reasonsOf = (state: { exceptions?: Array<{ reason: string }> }) =>
  (state.exceptions ?? []).map((exception) => exception.reason);

describe('amounts against the quote and exceptions by name (sandbox + receiver + dev server)', () => {
  const stacks = useRampStacks();
  const start = () => stacks.start({ timings: { markets: MARKETS } });

  async function openIncident(stack: RampStack, key: string) {
    return waitFor(`incident ${key}`, async () => {
      const alerts = await stack.ramp.listAlerts({ limit: 100 });
      return alerts.data.find((incident) => incident.key === key);
    });
  }

  async function fiatPayment(stack: RampStack, reference: string, amount: string) {
    return sandboxCall(stack.sandbox, 'POST', '/sandbox/v1/onramp/deposits', {
      reference,
      amount,
      coinTo: 'USDT',
      chainTo: 'TRX',
    });
  }

  test('off-ramp: quote shown, price moved: settles with amounts, deviation, gas and an off_quote exception', async () => {
    const stack = await start();
    const user = await endUserWithWallet(stack);
    const shown = await stack.ramp.showDepositQuote(user.endUserId, {
      quoteRequest: {
        direction: 'off-ramp',
        coinFrom: 'USDT',
        chainFrom: 'TRX',
        coinTo: 'MXN',
        amountFrom: '100',
      },
    });
    await sandboxCall(stack.sandbox, 'POST', '/sandbox/v1/prices', { USDT: MOVED_PRICE });
    const depositId = await depositCrypto(stack, user.address, '100');
    const state = await offRampEnded(stack, depositId);

    const order = stack.sandbox.state.orders.get(state.orderId ?? '');
    const topUp = stack.sandbox.state.transactions.get(state.gasTopUp?.id ?? '');
    const sweep = stack.sandbox.state.transactions.get(state.sweep?.id ?? '');
    expect(order).toBeDefined();
    expect(state).toMatchObject({ status: 'settled', endUserId: user.endUserId, quote: { ...shown } });
    expect(state.amounts).toEqual({
      quoted: {
        amountFrom: '100',
        targetAmount: shown.targetAmount,
        rate: expect.any(String),
        expiresAt: shown.expiresAt,
      },
      executed: {
        amountFrom: order!.amountFrom,
        amountTo: order!.amountTo,
        rate: expect.any(String),
        executedAt: expect.any(String),
      },
      difference: expect.stringMatching(/^-\d+(\.\d+)?$/),
      differencePercent: expect.stringMatching(/^-(3\.99\d*|4)$/),
      executedAfterExpiry: false,
    });
    expect(Number(state.amounts?.difference)).toBeCloseTo(
      Number(order!.amountTo) - Number(shown.targetAmount),
      2,
    );
    expect(state.gas).toEqual({
      topUp: topUp!.fee,
      sweep: sweep!.fee,
      total: { asset: 'TRX', amount: expect.any(String) },
    });
    expect(reasonsOf(state)).toEqual(['off_quote']);

    const [exception] = await eventsOf(stack, state, 'off_ramp.exception');
    expect(exception?.exception).toMatchObject({ reason: 'off_quote' });
    const [settled] = await eventsOf(stack, state, 'off_ramp.settled');
    expect(settled).toMatchObject({ amounts: state.amounts, gas: state.gas, endUserId: user.endUserId });
    expect(settled?.exceptions?.map((entry) => entry.reason)).toEqual(['off_quote']);
    const incident = await openIncident(stack, `ramp-exception/deposit/${depositId}/off_quote`);
    expect(incident.details).toMatchObject({ reason: 'off_quote', depositTransactionId: depositId });
    await recordHistory(stacks.client, offRampWorkflowId(depositId), 'offramp-exception-off-quote');
    await recordHistory(stacks.client, endUserWorkflowId(user.endUserId), 'end-user-deposit-quote', {
      running: true,
    });
  });

  test('off-ramp: an asset with no market is an exception when seen; under the minimum but converted, it settles and says so', async () => {
    const stack = await start();
    const user = await endUserWithWallet(stack);
    const dai = await sandboxCall(stack.sandbox, 'POST', '/sandbox/v1/offramp/deposits', {
      address: user.address,
      coin: 'DAI',
      amount: '50',
    });
    const daiId = String(dai.transactionId);
    const seen = Date.now();
    const unsupported = await waitFor('the DAI deposit to be an exception', async () => {
      const state = await stack.ramp.getOffRamp(daiId).catch(() => undefined);
      return state?.status === 'exception' ? state : undefined;
    });
    // Raised when seen, long before any step deadline could make it stuck.
    expect(Date.now() - seen).toBeLessThan(stack.timings.processTimeoutMs / 2);
    expect(reasonsOf(unsupported)).toEqual(['unsupported_market']);
    expect((await eventsOf(stack, unsupported, 'off_ramp.exception'))[0]?.exception).toMatchObject({
      reason: 'unsupported_market',
      message: expect.stringContaining('DAI'),
    });
    await openIncident(stack, `ramp-exception/deposit/${daiId}/unsupported_market`);

    const smallId = await depositCrypto(stack, user.address, '5');
    const small = await offRampEnded(stack, smallId);
    expect(small.status).toBe('settled');
    expect(reasonsOf(small)).toEqual(['below_minimum']);
    expect((await eventsOf(stack, small, 'off_ramp.exception'))[0]?.exception?.reason).toBe('below_minimum');
    expect(
      (await eventsOf(stack, small, 'off_ramp.settled'))[0]?.exceptions?.map((entry) => entry.reason),
    ).toEqual(['below_minimum']);
    // The operator converted it anyway: its incident is resolved.
    const resolved = await waitFor('the below_minimum incident to be resolved', async () => {
      const alerts = await stack.ramp.listAlerts({ status: 'resolved', limit: 100 });
      return alerts.data.find(
        (incident) => incident.key === `ramp-exception/deposit/${smallId}/below_minimum`,
      );
    });
    expect(resolved.kind).toBe('ramp-exception');
    await stacks.client.workflow.getHandle(offRampWorkflowId(daiId)).terminate('test done');
    await recordHistory(stacks.client, offRampWorkflowId(smallId), 'offramp-exception-converted-anyway');
  });

  test('off-ramp on a wallet no end user owns: an unattributed exception at once, then it settles', async () => {
    const stack = await start();
    const wallet = await stack.operator.createWallet({
      networks: [TRON],
      externalUserId: `nobody-${randomUUID()}`,
    });
    const address = stack.sandbox.state.wallets.get(wallet.id)?.addresses.get(TRON);
    expect(address).toBeDefined();
    const depositId = await depositCrypto(stack, address!, '20');
    const state = await offRampEnded(stack, depositId);
    expect(state).toMatchObject({ status: 'settled', endUserId: null, unattributed: true });
    expect(reasonsOf(state)).toEqual(['unattributed']);
    const [event] = await eventsOf(stack, state, 'off_ramp.exception');
    expect(event?.exception).toMatchObject({
      reason: 'unattributed',
      message: expect.stringContaining(wallet.id),
    });
    const incident = await openIncident(stack, `ramp-exception/deposit/${depositId}/unattributed`);
    expect(incident.details).toMatchObject({ walletId: wallet.id, reason: 'unattributed' });
  });

  test('on-ramp: off its quote, over the maximum, and under the operator minimum (failed): each named', async () => {
    const stack = await start();
    const offQuote = `bk-${randomUUID().slice(0, 12)}`;
    const started = await stack.ramp.startOnRamp('buyer-1', offQuote, {
      quoteRequest: {
        direction: 'on-ramp',
        coinFrom: 'MXN',
        coinTo: 'USDT',
        chainTo: 'TRX',
        amountFrom: '1000',
      },
    });
    await sandboxCall(stack.sandbox, 'POST', '/sandbox/v1/prices', { USDT: MOVED_PRICE });
    await fiatPayment(stack, offQuote, '1000');
    const quoted = await onRampEnded(stack, offQuote);
    const order = stack.sandbox.state.orders.get(quoted.order?.id ?? '');
    expect(quoted.status).toBe('settled');
    expect(quoted.amounts).toMatchObject({
      quoted: { amountFrom: '1000', targetAmount: started.quote?.targetAmount },
      executed: { amountFrom: '1000', amountTo: order?.amountTo },
      executedAfterExpiry: false,
    });
    // Fewer MXN per USDT: more USDT than quoted, about 4.17 % more.
    expect(quoted.amounts?.differencePercent).toMatch(/^4\.1\d*$/);
    expect(reasonsOf(quoted)).toEqual(['off_quote']);
    const [settled] = await eventsOf(stack, quoted, 'on_ramp.settled');
    expect(settled).toMatchObject({ amounts: quoted.amounts, endUserId: 'buyer-1' });
    await openIncident(stack, `ramp-exception/onramp/${offQuote}/off_quote`);
    await recordHistory(stacks.client, onRampWorkflowId(offQuote), 'onramp-exception-off-quote');

    const large = `bk-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp('buyer-2', large);
    await fiatPayment(stack, large, '6000');
    const over: OnRampState = await onRampEnded(stack, large);
    expect(over.status).toBe('settled');
    expect(reasonsOf(over)).toEqual(['above_maximum']);
    expect((await eventsOf(stack, over, 'on_ramp.exception'))[0]?.exception?.reason).toBe('above_maximum');

    const tiny = `bk-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp('buyer-3', tiny);
    await fiatPayment(stack, tiny, '10');
    const under: OnRampState = await onRampEnded(stack, tiny);
    expect(under.status).toBe('failed');
    expect(reasonsOf(under)).toEqual(['below_minimum']);
    const [exception] = await eventsOf(stack, under, 'on_ramp.exception');
    expect(exception).toMatchObject({ exception: { reason: 'below_minimum' }, endUserId: 'buyer-3' });
    await openIncident(stack, `ramp-exception/onramp/${tiny}/below_minimum`);
  });
});
