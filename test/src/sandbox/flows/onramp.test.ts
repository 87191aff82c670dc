import request from 'supertest';
import { webhookDelivery } from '../../../../src/operator/schemas';
import type { RunningSandbox } from '../../../../src/sandbox/server';
import {
  login,
  registerRecipients,
  setUpAccount,
  startReceiver,
  startTestSandbox,
  summary,
  type Auth,
  type Receiver,
} from '../../../helpers/sandbox';
import { waitFor } from '../../../helpers/wait';

describe('on-ramp sequence', () => {
  let sandbox: RunningSandbox;
  let receiver: Receiver;
  let auth: Auth;
  let master: { id: string; addresses: Record<string, string> };

  beforeEach(async () => {
    // 1000x faster: a 2 s step takes 2 ms, a 30 s confirmation 30 ms.
    sandbox = await startTestSandbox({ timeScale: 0.001, stepDelayMs: 2000, confirmationDelayMs: 30_000 });
    receiver = await startReceiver();
    auth = await login(sandbox);
    ({ master } = await setUpAccount(sandbox, auth));
    await registerRecipients(sandbox, auth, receiver.url);
  });
  afterEach(async () => {
    await sandbox.close();
    await receiver.close();
  });

  it('publishes order-created, order-updated executed, transaction-created, transaction-updated confirmed and delivers each recipient its events in order over HTTPS', async () => {
    const response = await request(sandbox.url)
      .post('/sandbox/v1/onramp/deposits')
      .send({ reference: 'clabe-ref-001', amount: '1725', coinTo: 'USDT', chainTo: 'TRX' })
      .expect(202);
    const { orderId, transactionId } = response.body.data as { orderId: string; transactionId: string };
    expect(response.body.data).toMatchObject({
      orderReference: 'clabe-ref-001',
      status: 'awaiting_funds',
      amountTo: '99.5',
    });

    await waitFor(() => receiver.received.length >= 4, 'four deliveries');
    const expected = [
      { data: { eventType: 'order-created', payload: { id: orderId, orderReference: 'clabe-ref-001' } } },
      {
        data: {
          eventType: 'order-updated',
          payload: { id: orderId, newStatus: 'executed', orderReference: 'clabe-ref-001' },
        },
      },
      { data: { eventType: 'transaction-created', payload: { id: transactionId } } },
      { data: { eventType: 'transaction-updated', payload: { id: transactionId, newStatus: 'confirmed' } } },
    ];
    // The operator publishes the four events in this order...
    const events = await request(sandbox.url).get('/sandbox/v1/events').expect(200);
    expect(
      (events.body.data as Array<{ eventType: string; payload: unknown }>).map(({ eventType, payload }) => ({
        data: { eventType, payload },
      })),
    ).toEqual(expected);
    // ...and each recipient receives its events in that order (two recipients are two independent streams).
    expect(
      receiver.received.filter((delivery) => delivery.path === '/orders').map((delivery) => delivery.body),
    ).toEqual(expected.slice(0, 2));
    expect(
      receiver.received.filter((delivery) => delivery.path === '/tx').map((delivery) => delivery.body),
    ).toEqual(expected.slice(2));
    for (const delivery of receiver.received) webhookDelivery.parse(delivery.body);

    const orderResponse = await request(sandbox.url)
      .get(`/core-conversions/private/v1/orders/${orderId}`)
      .set(auth.headers)
      .expect(200);
    expect(orderResponse.body.data).toMatchObject({
      status: 'executed',
      transactionId,
      direction: 'on-ramp',
    });
    const transactionResponse = await request(sandbox.url)
      .get(`/wallets/private/v1/transactions/${transactionId}`)
      .set(auth.headers)
      .expect(200);
    expect(transactionResponse.body.data).toMatchObject({
      status: 'confirmed',
      type: 'Deposit',
      walletId: master.id,
      toAddress: master.addresses['networks/tron-mainnet'],
      orderId,
      amount: '99.5',
    });
    const addresses = await request(sandbox.url)
      .get(`/wallets/private/v1/wallets/${master.id}/addresses`)
      .set(auth.headers)
      .expect(200);
    expect(addresses.body.data[1].balances).toEqual([{ asset: 'USDT', amount: '99.5' }]);

    const log = await request(sandbox.url).get('/sandbox/v1/deliveries?outcome=delivered').expect(200);
    expect(log.body.data).toHaveLength(4);
    expect(log.body.data[0]).toMatchObject({
      attempt: 1,
      status: 200,
      eventType: 'order-created',
      url: `${receiver.url}/orders`,
      final: true,
    });
  });

  it.each(['expired', 'failed'] as const)('ends the order as %s without a transaction', async (outcome) => {
    const response = await request(sandbox.url)
      .post('/sandbox/v1/onramp/deposits')
      .send({ reference: `ref-${outcome}`, amount: '500', coinTo: 'USDC', chainTo: 'ETH', outcome })
      .expect(202);
    const { orderId } = response.body.data as { orderId: string };
    expect(response.body.data.transactionId).toBeNull();
    await waitFor(() => receiver.received.length >= 2, 'two deliveries');
    expect(summary(receiver.received)).toEqual(['order-created:', `order-updated:${outcome}`]);
    const orderResponse = await request(sandbox.url)
      .get(`/core-conversions/private/v1/orders/${orderId}`)
      .set(auth.headers)
      .expect(200);
    expect(orderResponse.body.data.status).toBe(outcome);
    // Nothing else follows.
    const events = await request(sandbox.url).get('/sandbox/v1/events').expect(200);
    expect(events.body.data).toHaveLength(2);
  });

  it('fails an order for less MXN than its minimum', async () => {
    const response = await request(sandbox.url)
      .post('/sandbox/v1/onramp/deposits')
      .send({ reference: 'ref-small', amount: '19.99', coinTo: 'USDT', chainTo: 'TRX' })
      .expect(202);
    expect(response.body.data.transactionId).toBeNull();
    await waitFor(() => receiver.received.length >= 2, 'two deliveries');
    expect(summary(receiver.received)).toEqual(['order-created:', 'order-updated:failed']);
  });
});
