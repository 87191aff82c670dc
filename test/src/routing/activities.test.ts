/**
 * The hop's forwards and its whole hop as the routers make it (no deadline), and the routers' activity: a batch of
 * hops, each answered or failed on its own.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { snapshotReads } from '../../../activities/shared/snapshots';
import type { WorkflowTimings } from '../../../src/domain/timings';
import type { OperatorClient } from '../../../src/operator/client';
import { OperatorError } from '../../../src/operator/errors';
import { createRouterActivities } from '../../../src/routing/activities';
import { createHop, forwardOutcome, type HopDeps } from '../../../src/routing/hop';
import type { OffRampRole, OffRampTransactionSignal } from '../../../workflows/ramps/offramp/types';
import { OFF_RAMP_ORDER_UNROUTABLE } from '../../../workflows/ramps/router/owner';
import type { TransactionSnapshot } from '../../../workflows/ramps/shared/snapshots';
import { answeringOperator as operator } from '../../helpers/answering-operator';

type Raw = Record<string, unknown>;
const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** The hop's dependencies, its reads those of the activities (snapshotReads) over a stand-in operator. */
function deps({
  operator,
  temporal,
  logger,
}: {
  operator: unknown;
  temporal: unknown;
  logger?: unknown;
}): HopDeps {
  return {
    reads: snapshotReads(operator as OperatorClient),
    temporal: temporal as HopDeps['temporal'],
    logger: (logger ?? pino({ level: 'silent' })) as HopDeps['logger'],
  };
}

test('the routers keep their activity name', () => {
  expect(Object.keys(createRouterActivities(deps({ operator: {}, temporal: {} })))).toEqual(['routeEvents']);
});

test('a forward answers the process reached, or how it had ended', () => {
  expect(forwardOutcome({ delivered: true, workflowId: 'offramp/d' })).toEqual({
    workflowId: 'offramp/d',
  });
  const closed = { executionStatus: 'COMPLETED', status: 'settled', closedAt: null };
  expect(forwardOutcome({ delivered: false, workflowId: 'offramp/d', closed })).toEqual({
    workflowId: 'offramp/d',
    closed,
  });
});

describe("the router's hop", () => {
  function temporal() {
    const started: Array<{ workflowId: string; signalArgs: unknown[] }> = [];
    return {
      started,
      client: {
        workflow: {
          signalWithStart: (_type: string, options: { workflowId: string; signalArgs: unknown[] }) => {
            started.push({ workflowId: options.workflowId, signalArgs: options.signalArgs });
            return Promise.resolve();
          },
        },
      },
    };
  }
  const timings = {} as WorkflowTimings;

  async function forward(
    role: OffRampRole,
    transaction: Raw,
    op = operator({}, { 'o-1': { amountTo: '858.18' } }),
    logger: unknown = pino({ level: 'silent' }),
  ) {
    const t = temporal();
    const hop = createHop(deps({ operator: op.client, temporal: t.client, logger }));
    const signal = { role, transaction: transaction as unknown as TransactionSnapshot };
    const outcome = await hop.forwardToOffRamp(
      { depositTransactionId: 'dep-1', signal, timings },
      { taskQueue: 'q' },
    );
    return {
      outcome,
      reads: op.reads,
      sent: t.started.map((s) => s.signalArgs[0] as OffRampTransactionSignal),
    };
  }

  test('an order transaction goes with its order, read once', async () => {
    const { outcome, reads, sent } = await forward('orderTransaction', {
      id: 'otx-1',
      status: 'completed',
      orderId: 'o-1',
    });
    expect(outcome).toEqual({ workflowId: 'offramp/dep-1' });
    expect(reads).toEqual(['order:o-1']);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ role: 'orderTransaction', order: { id: 'o-1', amountTo: '858.18' } });
  });

  test('a transaction that names no order (or is a deposit) goes alone, with no read', async () => {
    for (const [role, transaction] of [
      ['deposit', { id: 'dep-1', status: 'completed', orderId: 'o-1' }],
      ['sweep', { id: 's-1', status: 'confirmed', orderId: null }],
      ['orderTransaction', { id: 'otx-1', status: 'completed', orderId: null }],
    ] as const) {
      const { reads, sent } = await forward(role, transaction);
      expect(reads).toEqual([]);
      expect(sent).toEqual([{ role, transaction }]);
    }
  });

  async function route(
    input: { kind: 'transaction' | 'order'; resourceId: string; lastStatus?: string },
    op: ReturnType<typeof operator>,
  ) {
    const t = temporal();
    const hop = createHop(deps({ operator: op.client, temporal: t.client }));
    const routed = await hop.routeEvent({ ...input, timings }, { taskQueue: 'q' });
    return { routed, reads: op.reads, started: t.started };
  }

  test('routeEvent: a deposit is re-read and forwarded to its off-ramp in one activity', async () => {
    const { routed, reads, started } = await route(
      { kind: 'transaction', resourceId: 'dep-1' },
      operator({ 'dep-1': { status: 'mined' } }),
    );
    expect(routed).toEqual({ status: 'mined', outcome: { workflowId: 'offramp/dep-1' } });
    expect(reads).toEqual(['tx:dep-1']);
    expect(started).toEqual([
      {
        workflowId: 'offramp/dep-1',
        signalArgs: [
          { role: 'deposit', transaction: expect.objectContaining({ id: 'dep-1', status: 'mined' }) },
        ],
      },
    ]);
  });

  test('routeEvent: the status last forwarded is a duplicate, forwarded nowhere', async () => {
    const { routed, started } = await route(
      { kind: 'transaction', resourceId: 'dep-1', lastStatus: 'mined' },
      operator({ 'dep-1': { status: 'mined' } }),
    );
    expect(routed).toEqual({ status: 'mined', duplicate: true });
    expect(started).toEqual([]);
  });

  test('routeEvent: a transaction of no ramp, and an off-ramp order, are unroutable', async () => {
    const strange = await route(
      { kind: 'transaction', resourceId: 'x-1' },
      operator({ 'x-1': { type: 'Withdrawal' } }),
    );
    expect(strange.routed).toEqual({
      status: 'completed',
      unroutable: 'transaction type Withdrawal belongs to no ramp process',
    });
    const offRampOrder = await route(
      { kind: 'order', resourceId: 'o-1' },
      operator({}, { 'o-1': { direction: 'off-ramp' } }),
    );
    expect(offRampOrder.routed).toEqual({ status: 'executed', unroutable: OFF_RAMP_ORDER_UNROUTABLE });
    expect([...strange.started, ...offRampOrder.started]).toEqual([]);
  });

  test('routeEvent: an on-ramp order goes to onramp/<reference>; its crypto deposit goes with the order', async () => {
    const order = await route(
      { kind: 'order', resourceId: 'o-1' },
      operator({}, { 'o-1': { direction: 'on-ramp' } }),
    );
    expect(order.routed).toEqual({ status: 'executed', outcome: { workflowId: 'onramp/ref-o-1' } });
    expect(order.started.map((s) => s.workflowId)).toEqual(['onramp/ref-o-1']);

    const deposit = await route(
      { kind: 'transaction', resourceId: 'dep-9' },
      operator({ 'dep-9': { orderId: 'o-1' } }, { 'o-1': { direction: 'on-ramp' } }),
    );
    expect(deposit.routed).toEqual({ status: 'completed', outcome: { workflowId: 'onramp/ref-o-1' } });
    expect(deposit.reads).toEqual(['tx:dep-9', 'order:o-1']);
    // The order first, then the deposit, as separate signals to the same process.
    expect(deposit.started).toEqual([
      { workflowId: 'onramp/ref-o-1', signalArgs: [expect.objectContaining({ id: 'o-1' })] },
      { workflowId: 'onramp/ref-o-1', signalArgs: [expect.objectContaining({ id: 'dep-9' })] },
    ]);
  });

  test('routeEvents: each hop routed on its own, a failure in its place, a hop past its deadline failed alone', async () => {
    const op = operator({ 'dep-1': { status: 'mined' }, 'dep-2': { status: 'confirmed' } });
    const getTransaction = op.client.getTransaction;
    op.client.getTransaction = (id: string) => {
      if (id === 'gone')
        return Promise.reject(
          new OperatorError('operator getTransaction answered 404', {
            operation: 'getTransaction',
            code: 'not_found',
            retryable: false,
            status: 404,
          }),
        );
      if (id === 'hangs') return new Promise(() => undefined);
      return getTransaction(id);
    };
    const t = temporal();
    const activities = createRouterActivities(deps({ operator: op.client, temporal: t.client }));
    const hops = ['dep-1', 'gone', 'hangs', 'dep-2'].map((resourceId) => ({
      kind: 'transaction' as const,
      resourceId,
    }));
    const results = await new MockActivityEnvironment(
      { taskQueue: 'q', startToCloseTimeoutMs: 500 },
      { logger: quietLogger },
    ).run((input) => activities.routeEvents(input), { timings, hops });
    expect(results).toEqual([
      { routed: { status: 'mined', outcome: { workflowId: 'offramp/dep-1' } } },
      {
        failed: {
          type: 'OperatorRejected',
          message: 'operator getTransaction answered 404',
          nonRetryable: true,
          details: [{ operation: 'getTransaction', code: 'not_found', status: 404 }],
        },
      },
      {
        failed: {
          type: 'HopDeadlineExceeded',
          message: 'Hop did not finish within 400 ms',
          nonRetryable: false,
        },
      },
      { routed: { status: 'confirmed', outcome: { workflowId: 'offramp/dep-2' } } },
    ]);
    expect(t.started.map((start) => start.workflowId)).toEqual(['offramp/dep-1', 'offramp/dep-2']);
  });

  test('an order that cannot be read leaves the transaction to go alone (the off-ramp reads the order)', async () => {
    const failing = operator({});
    failing.client.getOrder = (id: string) => {
      failing.reads.push(`order:${id}`);
      return Promise.reject(new Error('operator down'));
    };
    const warnings: Array<[Record<string, unknown>, string]> = [];
    const logger = {
      warn: (fields: Record<string, unknown>, message: string) => warnings.push([fields, message]),
    };
    const { outcome, reads, sent } = await forward(
      'orderTransaction',
      { id: 'otx-1', status: 'completed', orderId: 'o-1' },
      failing,
      logger,
    );
    expect(outcome).toEqual({ workflowId: 'offramp/dep-1' });
    expect(reads).toEqual(['order:o-1']);
    // Said once, for whoever wonders why that off-ramp read its order itself.
    expect(warnings).toEqual([
      [
        { orderId: 'o-1', depositTransactionId: 'dep-1', error: 'operator down' },
        'Order not read for the forward; the off-ramp reads it itself',
      ],
    ]);
    expect(sent).toEqual([
      { role: 'orderTransaction', transaction: { id: 'otx-1', status: 'completed', orderId: 'o-1' } },
    ]);
  });
});
