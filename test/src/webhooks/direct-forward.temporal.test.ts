/**
 * The receiver's own hop, on the real stack (sandbox over HTTP, receiver, worker, dev server): a delivery it can
 * forward is in its process's history before the 200, and no router takes part; every other delivery goes to its
 * router, which routes, records and raises as before.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { offRampWorkflowId, onRampWorkflowId } from '../../../src/domain/ids';
import { offRampTransactionSignal } from '../../../workflows/ramps/offramp/messages';
import {
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  offRampEnded,
  onRampEnded,
  postToReceiver,
  type RampStack,
  routerIdOf,
  routingOf,
  sandboxCall,
  useRampStacks,
  waitFor,
} from '../../helpers/ramp-stack';
import { getInsecure, metricValue } from '../../helpers/metrics';

/** How many times the process's history has received `signalName`. */
async function signalsReceived(client: Client, workflowId: string, signalName: string): Promise<number> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  return (events ?? []).filter(
    (event) => event.workflowExecutionSignaledEventAttributes?.signalName === signalName,
  ).length;
}

/** The receiver's record of each delivery it answered 200: its event type, resource and where it went. */
function recorded(stack: RampStack): { eventType: string; resourceId: string; workflowId: string }[] {
  return stack
    .logLines()
    .filter((line) => line.msg === 'Webhook delivery recorded')
    .map((line) => ({
      eventType: String(line.eventType),
      resourceId: String(line.resourceId),
      workflowId: String(line.workflowId),
    }));
}

/** Waits until the sandbox has delivered every webhook it published. */
const deliveriesDone = (stack: RampStack) =>
  waitFor('the sandbox to finish delivering', () =>
    stack.sandbox.ctx.delivery.active === 0 ? true : undefined,
  );

/** An off-ramp (the stack has no gas) waiting for its sweep after its deposit confirmed, its webhooks all delivered. */
async function strandedOffRamp(stack: RampStack): Promise<{ depositId: string; workflowId: string }> {
  const user = await endUserWithWallet(stack);
  const depositId = await depositCrypto(stack, user.address, '50');
  await waitFor('the off-ramp to wait for its sweep', async () =>
    (await stack.ramp.getOffRamp(depositId)).status === 'awaiting-sweep' ? true : undefined,
  );
  await deliveriesDone(stack);
  return { depositId, workflowId: offRampWorkflowId(depositId) };
}

function transactionUpdated(id: string, newStatus: string): string {
  return JSON.stringify({ data: { eventType: 'transaction-updated', payload: { id, newStatus } } });
}

describe('the receiver forwards a delivery to its process itself', () => {
  const stacks = useRampStacks();

  test('an off-ramp settles with its transactions forwarded by the receiver, and no router routes them', async () => {
    const stack = await stacks.start({ directForward: true });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const state = await offRampEnded(stack, depositId);
    expect(state).toMatchObject({ status: 'settled', endUserId: user.endUserId, fiatAmount: '858.18' });
    expect(state.gasTopUp?.status).toBe('confirmed');
    await deliveriesDone(stack);

    const transactions = recorded(stack).filter((delivery) => delivery.eventType.startsWith('transaction'));
    // Created, updated to confirmed: the deposit, the gas top-up, the sweep and the order's transaction at least.
    expect(transactions.length).toBeGreaterThanOrEqual(6);
    for (const delivery of transactions) expect(delivery.workflowId).toBe(offRampWorkflowId(depositId));
    expect(await routingOf(stacks.client, stack, 'transaction', depositId)).toBeUndefined();
    const metrics = (await getInsecure(`${stack.receiver.url}/metrics`)).body;
    expect(
      metricValue(metrics, 'ramp_webhook_direct_forwards_total', {
        kind: 'transaction',
        result: 'forwarded',
      }),
    ).toBe(transactions.length);
    // The off-ramp's order belongs to no process of its own: its delivery goes to a router, as before.
    const orderId = state.orderId!;
    const { orderReference } = await stack.operator.getOrder(orderId);
    const orderAnswer = await postToReceiver(
      stack.receiver.recipientUrls.order,
      JSON.stringify({
        data: { eventType: 'order-updated', payload: { id: orderId, orderReference, newStatus: 'executed' } },
      }),
    );
    expect(JSON.parse(orderAnswer.body)).toEqual({
      received: true,
      workflowId: routerIdOf(stack, 'order', orderId),
    });
    const after = (await getInsecure(`${stack.receiver.url}/metrics`)).body;
    expect(
      metricValue(after, 'ramp_webhook_direct_forwards_total', { kind: 'order', result: 'unroutable' }),
    ).toBe(1);
    const routing = await waitFor('the router to find the order belongs to no process', async () => {
      const current = await routingOf(stacks.client, stack, 'order', orderId);
      return current?.unroutable ? current : undefined;
    });
    expect(routing.forwardedTo).toEqual([]);
  });

  test('the 200 comes once the process has the event in its history', async () => {
    const stack = await stacks.start({ directForward: true, gasTrx: '0' });
    const { depositId, workflowId } = await strandedOffRamp(stack);
    const before = await signalsReceived(stacks.client, workflowId, offRampTransactionSignal.name);
    const answer = await postToReceiver(
      stack.receiver.recipientUrls.transaction,
      transactionUpdated(depositId, 'confirmed'),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ received: true, workflowId });
    expect(await signalsReceived(stacks.client, workflowId, offRampTransactionSignal.name)).toBe(before + 1);
    expect(await routingOf(stacks.client, stack, 'transaction', depositId)).toBeUndefined();
  });

  test('an on-ramp settles with its order and deposit forwarded by the receiver', async () => {
    const stack = await stacks.start({ directForward: true });
    const reference = `ref-${randomUUID().slice(0, 8)}`;
    await stack.ramp.startOnRamp('carol-3', reference);
    const { orderId } = await depositFiat(stack, reference);
    const state = await onRampEnded(stack, reference);
    expect(state).toMatchObject({ status: 'settled', endUserId: 'carol-3' });
    const orderEvents = recorded(stack).filter((delivery) => delivery.resourceId === orderId);
    expect(orderEvents.length).toBeGreaterThan(0);
    for (const delivery of orderEvents) expect(delivery.workflowId).toBe(onRampWorkflowId(reference));
    expect(await routingOf(stacks.client, stack, 'order', orderId)).toBeUndefined();
  });

  test('a resource the operator does not know goes to its router, which keeps trying', async () => {
    const stack = await stacks.start({ directForward: true });
    const id = `tx-${randomUUID()}`;
    const answer = await postToReceiver(
      stack.receiver.recipientUrls.transaction,
      JSON.stringify({ data: { eventType: 'transaction-created', payload: { id } } }),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      received: true,
      workflowId: routerIdOf(stack, 'transaction', id),
    });
    expect(
      stack.logLines().find((line) => line.msg?.toString().startsWith('Delivery not forwarded')),
    ).toMatchObject({ kind: 'transaction', resourceId: id, why: 'failed' });
    const routing = await waitFor('the router to read the resource', async () => {
      const state = await routingOf(stacks.client, stack, 'transaction', id);
      return state?.lastFailure ? state : undefined;
    });
    expect(routing.lastFailure?.message).toContain('404');
  });

  test('an operator too slow for the budget: the router takes the delivery, and the process still gets it', async () => {
    const stack = await stacks.start({ directForward: true, gasTrx: '0' });
    const { depositId, workflowId } = await strandedOffRamp(stack);
    const before = await signalsReceived(stacks.client, workflowId, offRampTransactionSignal.name);
    // Reads take 3 s, past the receiver's budget of 1 s; the router's activity has 5 s.
    await sandboxCall(stack.sandbox, 'POST', '/sandbox/v1/faults', {
      api: { slowMs: 3000, routes: ['getTransaction'] },
    });
    const sentAt = Date.now();
    const answer = await postToReceiver(
      stack.receiver.recipientUrls.transaction,
      transactionUpdated(depositId, 'confirmed'),
    );
    const answeredInMs = Date.now() - sentAt;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      received: true,
      workflowId: routerIdOf(stack, 'transaction', depositId),
    });
    expect(answeredInMs).toBeGreaterThanOrEqual(1000);
    expect(answeredInMs).toBeLessThan(2500);
    expect(
      stack.logLines().find((line) => line.msg?.toString().startsWith('Delivery not forwarded')),
    ).toMatchObject({ resourceId: depositId, why: 'timed-out' });
    // The router's forward, and perhaps the receiver's own, late: the process applies the status once either way.
    await waitFor('the router to forward the deposit', async () => {
      const routing = await routingOf(stacks.client, stack, 'transaction', depositId);
      return routing?.forwardedTo.includes(workflowId) ? routing : undefined;
    });
    expect(await signalsReceived(stacks.client, workflowId, offRampTransactionSignal.name)).toBeGreaterThan(
      before,
    );
    expect((await stack.ramp.getOffRamp(depositId)).status).toBe('awaiting-sweep');
  });

  test('a process that has ended is not forwarded to: its router records the late event', async () => {
    const stack = await stacks.start({ directForward: true });
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    await offRampEnded(stack, depositId);
    await waitFor('the off-ramp to close', async () =>
      (await stacks.client.workflow.getHandle(offRampWorkflowId(depositId)).describe()).status.name ===
      'COMPLETED'
        ? true
        : undefined,
    );
    const answer = await postToReceiver(
      stack.receiver.recipientUrls.transaction,
      transactionUpdated(depositId, 'confirmed'),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      received: true,
      workflowId: routerIdOf(stack, 'transaction', depositId),
    });
    const routing = await waitFor('the router to record the late event', async () => {
      const state = await routingOf(stacks.client, stack, 'transaction', depositId);
      return state?.lateEvents?.length ? state : undefined;
    });
    expect(routing.lateEvents![0]).toMatchObject({
      workflowId: offRampWorkflowId(depositId),
      processStatus: 'settled',
    });
  });
});
