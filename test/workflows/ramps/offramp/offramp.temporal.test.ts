/**
 * Off-ramp (Autoswap) end to end: sandbox operator (time-scaled) -> HTTPS deliveries -> the real receiver ->
 * transaction/<id> routers -> offramp/<depositId> on the real dev server, with real activities.
 */
import { offRampWorkflowId } from '../../../../src/domain/ids';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  sandboxCall,
  routingOf,
  useRampStacks,
  waitFor,
} from '../../../helpers/ramp-stack';
import { recordHistory } from '../../../helpers/histories';

describe('off-ramp process (sandbox + receiver + dev server)', () => {
  const stacks = useRampStacks();

  /** The RampStatus values a run upserted, in order. */
  async function rampStatusesUpserted(workflowId: string): Promise<string[]> {
    const history = await stacks.client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).flatMap((event) => {
      const payload =
        event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.RampStatus;
      return payload?.data ? [JSON.parse(Buffer.from(payload.data).toString('utf8')) as string] : [];
    });
  }

  async function runCount(workflowId: string): Promise<number> {
    let count = 0;
    for await (const execution of stacks.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
      if (execution) count += 1;
    return count;
  }

  test('a normal run settles with the fiat amount and order id, linked to its end user', async () => {
    const stack = await stacks.start();
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const state = await offRampEnded(stack, depositId);
    expect(state).toMatchObject({
      status: 'settled',
      endUserId: user.endUserId,
      unattributed: false,
      fiatAmount: '858.18',
      fiatCurrency: 'MXN',
    });
    expect(state.orderId).toEqual(expect.any(String));
    expect(state.gasTopUp?.status).toBe('confirmed');
    expect(state.alertsRaised).toBe(0);
    const endUser = await waitFor('end user to list the off-ramp', async () => {
      const current = await stack.endUserState(user.endUserId);
      return current.recentOffRamps.includes(depositId) ? current : undefined;
    });
    expect(endUser.recentOffRamps).toEqual([depositId]);
    const listed = await waitFor('visibility', async () => {
      const found = await stack.ramp.listProcesses({ endUserId: user.endUserId, status: 'settled' });
      return found.length > 0 ? found : undefined;
    });
    expect(listed[0]).toMatchObject({
      workflowId: offRampWorkflowId(depositId),
      direction: 'off-ramp',
      depositTransactionId: depositId,
    });
    // Its ordinary steps are in the ledger: visibility shows them as one value, an upsert when it changes.
    expect(await rampStatusesUpserted(offRampWorkflowId(depositId))).toEqual(['in-progress', 'settled']);
    await recordHistory(stacks.client, offRampWorkflowId(depositId), 'offramp-settled');
  });

  test('operator reads failing for longer than an activity may retry still settle: routers and processes keep trying', async () => {
    // Every Get Transaction fails (503) for a while, longer than the 1 s schedule-to-close budget of one read: the
    // router that holds the only copy of an already-answered webhook must not give up, nor must the off-ramp.
    const stack = await stacks.start({
      timings: { activityScheduleToCloseMs: 1_000, activityStartToCloseMs: 500 },
    });
    const user = await endUserWithWallet(stack);
    stack.sandbox.setFaults({ api: { fail: 1, routes: ['getTransaction'] } });
    const depositId = await depositCrypto(stack, user.address);
    const router = await waitFor('the router to record a failed read', async () => {
      const state = await routingOf(stacks.client, stack, 'transaction', depositId);
      return state?.lastFailure ? state : undefined;
    });
    expect(router.lastFailure?.what).toContain(depositId);
    // The operator's reason, not the activity wrapper's "Activity task failed".
    expect(router.lastFailure?.message).toMatch(/getTransaction failed with HTTP 503/);
    stack.sandbox.setFaults({});
    const state = await offRampEnded(stack, depositId);
    expect(state.status).toBe('settled');
  });

  test('every event delivered twice settles once', async () => {
    const stack = await stacks.start({
      sandbox: { faults: { deliveries: { duplicate: 1 } } },
    });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    const state = await offRampEnded(stack, depositId);
    expect(state.status).toBe('settled');
    expect(
      stack.sandbox.deliveries().filter((attempt) => attempt.duplicateOf && attempt.outcome === 'delivered')
        .length,
    ).toBeGreaterThan(0);
    expect(await runCount(offRampWorkflowId(depositId))).toBe(1);
    expect(state.alertsRaised).toBe(0);
    const endUser = await waitFor('end user to list the off-ramp', async () => {
      const current = await stack.endUserState(user.endUserId);
      return current.recentOffRamps.includes(depositId) ? current : undefined;
    });
    expect(endUser.recentOffRamps).toEqual([depositId]);
  });

  test('reordered events settle', async () => {
    const stack = await stacks.start({
      sandbox: { faults: { deliveries: { reorder: 1, reorderMaxHoldMs: 300 } } },
    });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    expect((await offRampEnded(stack, depositId)).status).toBe('settled');
    expect(stack.sandbox.deliveries().some((attempt) => attempt.fault === 'reorder')).toBe(true);
  });

  test('with every delivery after the first lost, polling still settles it', async () => {
    // The sandbox delivers its first webhook (the deposit's transaction-created) and drops every later one for good.
    const stack = await stacks.start({
      sandbox: { faults: { deliveries: { deliverOnlyFirst: 1 } } },
    });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    const state = await offRampEnded(stack, depositId);
    expect(state).toMatchObject({ status: 'settled', fiatAmount: '858.18' });
    expect(state.polls).toBeGreaterThan(0);
    const delivered = stack.sandbox.deliveries().filter((attempt) => attempt.outcome === 'delivered');
    expect(delivered.map((attempt) => [attempt.eventType, attempt.resourceId])).toEqual([
      ['transaction-created', depositId],
    ]);
    expect(
      stack.sandbox.deliveries().filter((attempt) => attempt.fault === 'drop-after-budget').length,
    ).toBeGreaterThanOrEqual(4);
  });

  test('a gas shortfall ends stuck with one alert; funding the gas wallet lets it settle', async () => {
    const stack = await stacks.start({ gasTrx: '0' });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address);
    const stuck = await offRampEnded(stack, depositId, ['stuck']);
    expect(stuck.gasCheck).toMatchObject({
      gasWalletId: stack.gasWalletId,
      asset: 'TRX',
      balance: '0',
      shortfall: true,
    });
    await waitFor('the alert', () => (stack.alerts().length > 0 ? true : undefined));
    // Stays stuck (polling) without a second alert.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await stack.ramp.getOffRamp(depositId)).status).toBe('stuck');
    expect(stack.alerts()).toHaveLength(1);
    expect(stack.alerts()[0]).toMatchObject({
      level: 50,
      alert: { kind: 'gas-shortfall', depositTransactionId: depositId },
    });

    await sandboxCall(stack.sandbox, 'POST', `/sandbox/v1/wallets/${stack.gasWalletId}/balances`, {
      asset: 'TRX',
      amount: '1000',
    });
    const settled = await offRampEnded(stack, depositId);
    expect(settled).toMatchObject({ status: 'settled', alertsRaised: 1 });
    await recordHistory(stacks.client, offRampWorkflowId(depositId), 'offramp-stuck-then-settled');
    expect(stack.alerts()).toHaveLength(1);
  });
});
