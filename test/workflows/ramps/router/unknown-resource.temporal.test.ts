/**
 * A forged (or misrouted) webhook for a resource the operator does not know: accepted (the receiver cannot tell),
 * re-read a bounded number of times, then given up, recorded where people look and counted in metrics, instead of
 * re-reading the operator until the process timeout.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { RampMetrics } from '../../../../src/observability/metrics';
import { RampStatus } from '../../../../src/temporal/search-attributes';
import { routerStateQuery } from '../../../../workflows/ramps/router/messages';
import { UNKNOWN_RESOURCE_STATUS } from '../../../../workflows/ramps/router/types';
import { connectTestClient } from '../../../helpers/temporal';
import { postToReceiver, type RampStack, startRampStack, waitFor } from '../../../helpers/ramp-stack';
import { recordHistory } from '../../../helpers/histories';

describe('a router for a resource the operator does not know (sandbox + receiver + dev server)', () => {
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

  test('forged transaction-created events: bounded re-reads, then the router gives up, searchable and counted', async () => {
    const UNKNOWN_FOR_MS = 3_000;
    // One router per resource (RECEIVER_ROUTER_SHARDS=0); shard-router.temporal.test.ts has a shard's lane give up.
    stack = await startRampStack(client, connection, {
      routerShards: 0,
      timings: { unknownResourceTimeoutMs: UNKNOWN_FOR_MS, pollInitialMs: 200, pollMaximumMs: 400 },
    });
    const forged = [`forged-${randomUUID()}`, `forged-${randomUUID()}`];
    for (const id of forged) {
      const answer = await postToReceiver(
        stack.receiver.recipientUrls.transaction,
        JSON.stringify({ data: { eventType: 'transaction-created', payload: { id } } }),
      );
      expect(answer.status).toBe(200);
    }

    for (const id of forged) {
      const handle = client.workflow.getHandle(`transaction/${id}`);
      const state = await waitFor('the router to give up', async () => {
        const current = await handle.query(routerStateQuery);
        return current.unknownResource?.gaveUpAt ? current : undefined;
      });
      expect(state.unknownResource).toMatchObject({ eventsDropped: 1 });
      expect(state.forwardedTo).toEqual([]);
      expect((await handle.describe()).status.name).toBe('COMPLETED');
      expect((await handle.describe()).typedSearchAttributes.get(RampStatus)).toBe(UNKNOWN_RESOURCE_STATUS);
      // Reads doubling from 200 ms without the poll maximum: about log2(3000 / 200) + 1 reads, not one per 400 ms.
      const reads = stack.sandbox
        .calls()
        .filter((call) => call.route === 'getTransaction' && call.path.endsWith(`/${id}`));
      expect(reads.length).toBe(state.unknownResource!.reads);
      expect(reads.length).toBeGreaterThanOrEqual(3);
      expect(reads.length).toBeLessThanOrEqual(6);
      expect(reads.every((call) => call.status === 404)).toBe(true);
    }

    const metrics = new RampMetrics({ temporal: client, cacheTtlMs: 0 });
    const counted = await waitFor('visibility to count the routers', async () => {
      const { body } = await metrics.render();
      const value = Number(/^ramp_routers_unknown_resource (\d+)/m.exec(body)?.[1] ?? '0');
      return value >= forged.length ? value : undefined;
    });
    expect(counted).toBeGreaterThanOrEqual(forged.length);
    await recordHistory(client, `transaction/${forged[0]}`, 'router-unknown-resource');
  });
});
