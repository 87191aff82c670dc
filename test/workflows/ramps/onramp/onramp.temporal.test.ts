/** On-ramp end to end (sandbox + real receiver over HTTPS + dev server + real activities). */
import { randomUUID } from 'node:crypto';
import { onRampWorkflowId } from '../../../../src/domain/ids';
import { depositFiat, onRampEnded, useRampStacks, waitFor } from '../../../helpers/ramp-stack';
import { recordHistory } from '../../../helpers/histories';

describe('on-ramp process (sandbox + receiver + dev server)', () => {
  const stacks = useRampStacks();

  const reference = () => `ref-${randomUUID().slice(0, 12)}`;

  test('a normal run started by the typed client settles with the crypto amount', async () => {
    const stack = await stacks.start();
    const ref = reference();
    const started = await stack.ramp.startOnRamp('alice-1', ref, {
      quote: { targetAmount: '57.68', expiresAt: '2030-01-01T00:00:00Z' },
    });
    expect(started.workflowId).toBe(onRampWorkflowId(ref));
    const { transactionId } = await depositFiat(stack, ref);
    const state = await onRampEnded(stack, ref);
    expect(state).toMatchObject({
      status: 'settled',
      endUserId: 'alice-1',
      unattributed: false,
      asset: 'USDT',
      quote: { targetAmount: '57.68' },
    });
    expect(state.deposit?.id).toBe(transactionId);
    expect(state.cryptoAmount).toMatch(/^\d+(\.\d+)?$/);
    await recordHistory(stacks.client, onRampWorkflowId(ref), 'onramp-settled');
  });

  test('an order event for an unknown reference starts it unattributed; every event twice settles once', async () => {
    const stack = await stacks.start({
      sandbox: { faults: { deliveries: { duplicate: 1 } } },
    });
    const ref = reference();
    await depositFiat(stack, ref);
    const state = await onRampEnded(stack, ref);
    expect(state).toMatchObject({ status: 'settled', unattributed: true, endUserId: null });
    // Every webhook really went out twice, and the process still ran once and settled once.
    expect(
      stack.sandbox.deliveries().filter((attempt) => attempt.duplicateOf && attempt.outcome === 'delivered')
        .length,
    ).toBeGreaterThan(0);
    let runs = 0;
    for await (const execution of stacks.client.workflow.list({
      query: `WorkflowId = '${onRampWorkflowId(ref)}'`,
    }))
      if (execution) runs += 1;
    expect(runs).toBe(1);
    await recordHistory(stacks.client, onRampWorkflowId(ref), 'onramp-unattributed-settled');
  });

  test('reordered events settle', async () => {
    const stack = await stacks.start({
      sandbox: { faults: { deliveries: { reorder: 1, reorderMaxHoldMs: 300 } } },
    });
    const ref = reference();
    await stack.ramp.startOnRamp('bob-2', ref);
    await depositFiat(stack, ref);
    expect((await onRampEnded(stack, ref)).status).toBe('settled');
    expect(stack.sandbox.deliveries().some((attempt) => attempt.fault === 'reorder')).toBe(true);
  });

  test('with every delivery after the first lost, polling still settles it', async () => {
    // The sandbox delivers its first webhook (order-created) and drops every later one for good.
    const stack = await stacks.start({
      sandbox: { faults: { deliveries: { deliverOnlyFirst: 1 } } },
    });
    const ref = reference();
    const { orderId } = await depositFiat(stack, ref);
    const state = await onRampEnded(stack, ref);
    expect(state.status).toBe('settled');
    expect(state.polls).toBeGreaterThan(0);
    const delivered = stack.sandbox.deliveries().filter((attempt) => attempt.outcome === 'delivered');
    expect(delivered.map((attempt) => [attempt.eventType, attempt.resourceId])).toEqual([
      ['order-created', orderId],
    ]);
    expect(
      stack.sandbox.deliveries().filter((attempt) => attempt.fault === 'drop-after-budget').length,
    ).toBeGreaterThanOrEqual(3);
  });

  test('an expired order ends expired and a failed order ends failed', async () => {
    const stack = await stacks.start();
    const expiredRef = reference();
    const failedRef = reference();
    await stack.ramp.startOnRamp('carol-3', expiredRef);
    await depositFiat(stack, expiredRef, 'expired');
    await depositFiat(stack, failedRef, 'failed');
    expect(await onRampEnded(stack, expiredRef)).toMatchObject({
      status: 'expired',
      failure: { resource: 'order', status: 'expired' },
    });
    expect(await onRampEnded(stack, failedRef)).toMatchObject({
      status: 'failed',
      failure: { resource: 'order', status: 'failed' },
    });
    const listed = await waitFor('visibility', async () => {
      const found = await stack.ramp.listProcesses({ endUserId: 'carol-3', status: 'expired' });
      return found.length > 0 ? found : undefined;
    });
    expect(listed.map((entry) => entry.workflowId)).toContain(onRampWorkflowId(expiredRef));
  });
});
