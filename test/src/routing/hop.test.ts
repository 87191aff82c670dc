/**
 * The hop as the receiver runs it, with a deadline: every operator read it makes carries the deadline, and every
 * Temporal call runs inside it, so a hop cut off by the receiver's budget leaves nothing running long. Without a
 * deadline (the routers' activity, reconciliation) the reads carry none.
 */
import type { Client } from '@temporalio/client';
import pino from 'pino';
import { snapshotReads } from '../../../activities/shared/snapshots';
import { createHop, type HopPlace } from '../../../src/routing/hop';
import type { OperatorClient } from '../../../src/operator/client';
import { answeringOperator } from '../../helpers/answering-operator';
import { fastTimings } from '../../helpers/temporal';

const asOperator = (client: unknown) => client as OperatorClient;

/** A Temporal client whose signal-with-start succeeds, recording which calls ran inside a deadline. */
function recordingTemporal() {
  const signals: { workflowId: string; signal: string; deadlineMs: number | undefined }[] = [];
  let current: number | undefined;
  const temporal = {
    async withDeadline<R>(deadlineMs: number, fn: () => Promise<R>): Promise<R> {
      current = deadlineMs;
      try {
        return await fn();
      } finally {
        current = undefined;
      }
    },
    workflow: {
      signalWithStart: (
        _type: string,
        options: { workflowId: string; signal: string | { name: string } },
      ) => {
        const signal = typeof options.signal === 'string' ? options.signal : options.signal.name;
        signals.push({ workflowId: options.workflowId, signal, deadlineMs: current });
        return Promise.resolve();
      },
    },
  };
  return { signals, temporal: temporal as unknown as Client };
}

const timings = fastTimings();

describe("the router's hop with the receiver's deadline", () => {
  const deadline = { operatorMs: 123_456, temporalMs: 1_700_000_000_000 };
  const place: HopPlace = { taskQueue: 'ramps', deadline };

  test('an on-ramp deposit: both reads carry the deadline, and both signals run inside it', async () => {
    const { reads, readOptions, client } = answeringOperator({ 'tx-1': { orderId: 'ord-1' } });
    const { signals, temporal } = recordingTemporal();
    const hop = createHop({
      reads: snapshotReads(asOperator(client)),
      temporal,
      logger: pino({ level: 'silent' }),
    });
    const routed = await hop.routeEvent({ kind: 'transaction', resourceId: 'tx-1', timings }, place);
    expect(routed).toMatchObject({ outcome: { workflowId: 'onramp/ref-ord-1' } });
    expect(reads).toEqual(['tx:tx-1', 'order:ord-1']);
    expect(readOptions).toEqual([{ deadlineMs: deadline.operatorMs }, { deadlineMs: deadline.operatorMs }]);
    expect(signals.map((sent) => sent.deadlineMs)).toEqual([deadline.temporalMs, deadline.temporalMs]);
  });

  test("an off-ramp sweep: its order's read for the forward carries the deadline too", async () => {
    const { reads, readOptions, client } = answeringOperator({
      'sweep-1': {
        type: 'AutoSweep',
        subtype: 'sponsored-sweep',
        relatedTransactionId: 'dep-1',
        orderId: 'ord-2',
      },
    });
    const { signals, temporal } = recordingTemporal();
    const hop = createHop({
      reads: snapshotReads(asOperator(client)),
      temporal,
      logger: pino({ level: 'silent' }),
    });
    const routed = await hop.routeEvent({ kind: 'transaction', resourceId: 'sweep-1', timings }, place);
    expect(routed).toMatchObject({ outcome: { workflowId: 'offramp/dep-1' } });
    expect(reads).toEqual(['tx:sweep-1', 'order:ord-2']);
    expect(readOptions).toEqual([{ deadlineMs: deadline.operatorMs }, { deadlineMs: deadline.operatorMs }]);
    expect(signals).toEqual([
      { workflowId: 'offramp/dep-1', signal: expect.any(String), deadlineMs: deadline.temporalMs },
    ]);
  });

  test("without a deadline (a router's activity) no read carries one and no call is bounded", async () => {
    const { readOptions, client } = answeringOperator({ 'tx-2': { orderId: 'ord-3' } });
    const { signals, temporal } = recordingTemporal();
    const hop = createHop({
      reads: snapshotReads(asOperator(client)),
      temporal,
      logger: pino({ level: 'silent' }),
    });
    await hop.routeEvent({ kind: 'transaction', resourceId: 'tx-2', timings }, { taskQueue: 'ramps' });
    expect(readOptions).toEqual([{}, {}]);
    expect(signals.map((sent) => sent.deadlineMs)).toEqual([undefined, undefined]);
  });
});
