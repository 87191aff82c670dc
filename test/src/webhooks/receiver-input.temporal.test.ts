/**
 * Deliveries whose IDs cannot be used are a 400 (the operator stops retrying), never a 503, and reach neither Temporal
 * nor the operator: a lone surrogate once made signal-with-start fail and the receiver answer 503 forever; an ID of
 * `..` once made the worker send authenticated GETs to /wallets/private/v1/ and /core-conversions/private/v1/.
 */
import type { Client, Connection } from '@temporalio/client';
import { connectTestClient } from '../../helpers/temporal';
import { postToReceiver, type RampStack, startRampStack, waitFor } from '../../helpers/ramp-stack';

const delivery = (eventType: string, payload: Record<string, unknown>) =>
  JSON.stringify({ data: { eventType, payload } });

async function executionsOn(client: Client, taskQueue: string): Promise<number> {
  return (await client.workflow.count(`TaskQueue = '${taskQueue}'`)).count;
}

describe('receiver: deliveries with unusable identifiers', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    stack = await startRampStack(client, connection);
  });
  afterAll(async () => {
    await stack.close();
    await connection.close();
  });

  test('are answered 400 with the error envelope; no workflow starts and the operator sees no call', async () => {
    const tx = stack.receiver.recipientUrls.transaction;
    const orders = stack.receiver.recipientUrls.order;
    const callsBefore = stack.sandbox.calls().length;
    const executionsBefore = await executionsOn(client, stack.worker.taskQueue);

    const cases: Array<[string, string, string]> = [
      ['lone surrogate id (transaction-created)', tx, delivery('transaction-created', { id: '\ud800' })],
      [
        'lone surrogate id (transaction-updated)',
        tx,
        delivery('transaction-updated', { id: 'tx-\udfff', newStatus: 'confirmed' }),
      ],
      [
        'lone surrogate reference',
        orders,
        delivery('order-created', { id: 'order-1', orderReference: '\ud800' }),
      ],
      ['id ..', tx, delivery('transaction-created', { id: '..' })],
      ['id .', tx, delivery('transaction-created', { id: '.' })],
      [
        'order id ..',
        orders,
        delivery('order-updated', { id: '..', newStatus: 'executed', orderReference: 'ref-1' }),
      ],
      ['reference ..', orders, delivery('order-created', { id: 'order-2', orderReference: '..' })],
      ['id with a slash', tx, delivery('transaction-created', { id: 'a/b' })],
      ['percent-encoded dots', tx, delivery('transaction-created', { id: '%2e%2e' })],
      ['control character', tx, delivery('transaction-created', { id: 'tx\u0000' })],
      ['201 characters', tx, delivery('transaction-created', { id: 't'.repeat(201) })],
      ['unknown kind with id ..', orders, delivery('order-archived', { id: '..' })],
    ];
    for (const [what, url, body] of cases) {
      const answer = await postToReceiver(url, body);
      expect({ what, status: answer.status }).toEqual({ what, status: 400 });
      const parsed = JSON.parse(answer.body) as { error: { code: string; issues: string[] } };
      expect(parsed.error.code).toBe('invalid_delivery');
      expect(parsed.error.issues.join()).toMatch(/^data\.payload\.(id|orderReference): /);
    }

    // A delivery that is fine lands: the counting below can see a started workflow.
    const good = await postToReceiver(
      tx,
      delivery('transaction-created', { id: `tx-control-${Date.now()}` }),
    );
    expect(good.status).toBe(200);
    await waitFor(
      'the control delivery in visibility',
      async () =>
        (await executionsOn(client, stack.worker.taskQueue)) === executionsBefore + 1 ? true : undefined,
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await executionsOn(client, stack.worker.taskQueue)).toBe(executionsBefore + 1);
    // Only the control's router re-read its transaction: no call names `..` or lands on a collection route.
    const calls = stack.sandbox.calls().slice(callsBefore);
    for (const call of calls)
      expect(call.path).toMatch(/^\/(auth|wallets\/private\/v1\/transactions\/tx-control-)/);
    expect(
      calls.some(
        (call) => call.path === '/wallets/private/v1/' || call.path === '/core-conversions/private/v1/',
      ),
    ).toBe(false);
  });

  test('a malformed percent-encoding in the delivery path is a JSON 400, not a 500', async () => {
    const base = stack.receiver.url;
    for (const path of ['/webhooks/transactions/%ZZ', '/webhooks/orders/a%FF', '/webhooks/%ED%A0%80/x']) {
      const answer = await postToReceiver(`${base}${path}`, delivery('transaction-created', { id: 'tx-1' }));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 'malformed_uri', message: expect.any(String) },
      });
    }
  });
});
