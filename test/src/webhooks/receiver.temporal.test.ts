/** The webhook receiver over HTTPS on 127.0.0.1: secrets, validation, unknown kinds, and 503 when Temporal is away. */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { unknownEventsQuery } from '../../../workflows/ramps/unknown-events/messages';
import { UNKNOWN_EVENTS_WORKFLOW_ID } from '../../../src/domain/ids';
import { connectTestClient, testServer } from '../../helpers/temporal';
import {
  depositFiat,
  onRampEnded,
  postToReceiver,
  type RampStack,
  routerIdOf,
  startRampStack,
  waitFor,
} from '../../helpers/ramp-stack';

/** A TCP proxy to the dev server that can be stopped and started again on the same port. */
async function stoppableProxy(target: string) {
  const [host, port] = [
    target.slice(0, target.lastIndexOf(':')),
    Number(target.slice(target.lastIndexOf(':') + 1)),
  ];
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const listenPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return {
    address: `127.0.0.1:${listenPort}`,
    async start() {
      server = net.createServer((inbound) => {
        const outbound = net.connect(port, host);
        for (const socket of [inbound, outbound]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      await new Promise<void>((resolve) => server!.listen(listenPort, '127.0.0.1', resolve));
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = null;
    },
  };
}

describe('webhook receiver', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack | undefined;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });
  afterAll(async () => {
    await connection.close();
  });

  test('a wrong secret gets 404, a malformed body 400, and neither starts anything', async () => {
    stack = await startRampStack(client, connection);
    const id = `tx-${randomUUID()}`;
    const good = JSON.stringify({ data: { eventType: 'transaction-created', payload: { id } } });
    expect(
      (await postToReceiver(`${stack.receiver.url}/webhooks/transactions/not-the-secret-000000000000`, good))
        .status,
    ).toBe(404);
    // The order secret on the transaction path is wrong too.
    expect(
      (
        await postToReceiver(
          `${stack.receiver.url}/webhooks/transactions/${stack.receiverConfig.orderSecret.reveal()}`,
          good,
        )
      ).status,
    ).toBe(404);
    const url = stack.receiver.recipientUrls.transaction;
    expect((await postToReceiver(url, '{"data": ')).status).toBe(400);
    expect((await postToReceiver(url, JSON.stringify({ data: { payload: { id } } }))).status).toBe(400);
    expect(
      (
        await postToReceiver(
          url,
          JSON.stringify({ data: { eventType: 'transaction-updated', payload: { id } } }),
        )
      ).status,
    ).toBe(400);
    expect((await postToReceiver(url, good, 'text/plain')).status).toBe(415);
    expect(
      (
        await postToReceiver(
          url,
          JSON.stringify({
            data: { eventType: 'transaction-created', payload: { id, pad: 'x'.repeat(20_000) } },
          }),
        )
      ).status,
    ).toBe(413);
    // Nothing started: not the router the resource belongs to.
    await expect(client.workflow.getHandle(routerIdOf(stack, 'transaction', id)).describe()).rejects.toThrow(
      /not found/i,
    );
    expect(JSON.stringify(stack.logLines())).not.toContain(stack.receiverConfig.transactionSecret.reveal());
  });

  test('an unknown event kind is accepted and kept visible', async () => {
    // The store's ID is one per namespace: another test's may be running on a task queue no worker polls any more,
    // where a query would never be answered; this test's receiver must start it on its own worker's queue.
    await client.workflow
      .getHandle(UNKNOWN_EVENTS_WORKFLOW_ID)
      .terminate('a fresh store for this test')
      .catch(() => undefined);
    stack = await startRampStack(client, connection);
    const id = `thing-${randomUUID()}`;
    const answer = await postToReceiver(
      stack.receiver.recipientUrls.order,
      JSON.stringify({ data: { eventType: 'order-archived', payload: { id, extra: 1 } } }),
    );
    expect(answer.status).toBe(200);
    const events = await waitFor('the unknown event', async () => {
      const list = await client.workflow.getHandle(UNKNOWN_EVENTS_WORKFLOW_ID).query(unknownEventsQuery);
      return list.some((event) => event.resourceId === id) ? list : undefined;
    });
    expect(events.find((event) => event.resourceId === id)).toMatchObject({
      eventType: 'order-archived',
      kindPath: 'order',
      payloadKeys: ['id', 'extra'],
    });
  });

  test('Temporal unreachable gives 503, and the operator retry then lands the event', async () => {
    const proxy = await stoppableProxy(testServer().address);
    const receiverConnection = Connection.lazy({ address: proxy.address });
    const receiverClient = new Client({ connection: receiverConnection, namespace: testServer().namespace });
    try {
      stack = await startRampStack(client, connection, {
        receiverTemporal: receiverClient,
        temporalTimeoutMs: 1_000,
        // One retry delay of 30 min, scaled by 0.001: 1.8 s between attempts.
        sandbox: { deliveryDelaysMs: [1_800_000, 1_800_000, 1_800_000, 1_800_000] },
      });
      const ref = `ref-${randomUUID().slice(0, 12)}`;
      const { orderId } = await depositFiat(stack, ref);
      const failed = await waitFor('a 503 answer', () =>
        stack!.sandbox
          .deliveries()
          .find((attempt) => attempt.resourceId === orderId && attempt.outcome === 'failed'),
      );
      expect(failed.status).toBe(503);
      await proxy.start();
      const state = await onRampEnded(stack, ref);
      expect(state.status).toBe('settled');
      // The very delivery that got the 503 was retried by the sandbox and landed.
      const landed = await waitFor('the retried delivery', () =>
        stack!.sandbox
          .deliveries()
          .find((attempt) => attempt.deliveryId === failed.deliveryId && attempt.outcome === 'delivered'),
      );
      expect(landed.attempt).toBeGreaterThan(1);
    } finally {
      await stack?.close();
      stack = undefined;
      await proxy.stop();
      await receiverConnection.close();
    }
  });
});
