/**
 * Late webhooks: the operator retries a failed delivery for about two hours, so deliveries that arrive after their
 * process has ended are normal. They must never start a second run of the process (one run per process ID), and
 * the client's attribution of an on-ramp must survive them.
 */
import { randomUUID } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { offRampWorkflowId, onRampWorkflowId } from '../../../../src/domain/ids';
import type { ResourceKind } from '../../../../src/domain/vocabulary';
import type { LaneState } from '../../../../workflows/ramps/router/types';
import { connectTestClient } from '../../../helpers/temporal';
import {
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  offRampEnded,
  onRampEnded,
  type RampStack,
  startRampStack,
  waitFor,
  routerIdOf,
  routingsOf,
} from '../../../helpers/ramp-stack';
import { recordHistory } from '../../../helpers/histories';

const LATE_TYPES = ['transaction-updated', 'order-updated'];

describe('late deliveries after a process ended (sandbox + receiver + dev server)', () => {
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

  /** Executions under one workflow ID, from visibility. */
  async function runsOf(
    workflowId: string,
  ): Promise<Array<{ runId: string; status: string; closeTime: Date | undefined }>> {
    const runs: Array<{ runId: string; status: string; closeTime: Date | undefined }> = [];
    for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
      runs.push({ runId: execution.runId, status: execution.status.name, closeTime: execution.closeTime });
    }
    return runs;
  }

  /** Late events recorded by the routers of these resources (every run, newest first). */
  async function lateEventsOn(
    current: RampStack,
    resources: [ResourceKind, string][],
  ): Promise<NonNullable<LaneState['lateEvents']>> {
    const late: NonNullable<LaneState['lateEvents']> = [];
    for (const [kind, resourceId] of resources)
      for (const state of await routingsOf(client, current, kind, resourceId))
        late.push(...(state.lateEvents ?? []));
    return late;
  }

  /** Waits until every delayed delivery has been answered by the receiver. */
  async function delayedDeliveriesDone(current: RampStack) {
    return waitFor(
      'the delayed deliveries to be delivered',
      () => {
        const delayed = current.sandbox.deliveries().filter((attempt) => attempt.fault === 'delay');
        const pending = delayed.filter(
          (attempt) =>
            !current.sandbox
              .deliveries()
              .some((done) => done.deliveryId === attempt.deliveryId && done.final),
        );
        return delayed.length > 0 && pending.length === 0 ? delayed : undefined;
      },
      60_000,
    );
  }

  test('every transaction-updated and order-updated delivered 9 s late: one run per process, the on-ramp keeps its end user', async () => {
    stack = await startRampStack(client, connection, {
      sandbox: { faults: { deliveries: { delay: 1, delayMs: 9_000, eventTypes: LATE_TYPES } } },
    });
    const user = await endUserWithWallet(stack);
    const reference = `late-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp(user.endUserId, reference);
    const fiat = await depositFiat(stack, reference);
    const depositId = await depositCrypto(stack, user.address);

    // Both settle by polling long before the delayed deliveries arrive.
    const offRamp = await offRampEnded(stack, depositId, ['settled']);
    const onRamp = await onRampEnded(stack, reference);
    expect(onRamp).toMatchObject({ status: 'settled', endUserId: user.endUserId, unattributed: false });
    expect(offRamp.endUserId).toBe(user.endUserId);

    const delayed = await delayedDeliveriesDone(stack);
    const offRampRuns = await runsOf(offRampWorkflowId(depositId));
    const onRampRuns = await runsOf(onRampWorkflowId(reference));
    // The faults really delivered events after the processes had closed.
    const closedAt = Math.min(offRampRuns[0]!.closeTime!.getTime(), onRampRuns[0]!.closeTime!.getTime());
    expect(
      delayed.some((attempt) => attempt.outcome === 'delivered' && Date.parse(attempt.time) > closedAt),
    ).toBe(true);

    // Each late event reached a router, which found its process ended and recorded it instead of starting it.
    const resources: [ResourceKind, string][] = [
      ['transaction', depositId],
      ['order', fiat.orderId],
      ...(fiat.transactionId ? [['transaction', fiat.transactionId] as [ResourceKind, string]] : []),
    ];
    const late = await waitFor('the routers to record the late events', async () => {
      const found = await lateEventsOn(stack!, resources);
      const targets = new Set(found.map((event) => event.workflowId));
      return targets.has(offRampWorkflowId(depositId)) && targets.has(onRampWorkflowId(reference))
        ? found
        : undefined;
    });
    expect(late.every((event) => event.processStatus === 'settled')).toBe(true);

    expect(offRampRuns).toHaveLength(1);
    expect(onRampRuns).toHaveLength(1);
    expect(await runsOf(offRampWorkflowId(depositId))).toHaveLength(1);
    expect(await runsOf(onRampWorkflowId(reference))).toHaveLength(1);
    // Reads answer the one process, with the end user the client started it with.
    expect(await stack.ramp.getOnRamp(reference)).toMatchObject({
      status: 'settled',
      endUserId: user.endUserId,
    });
    expect(await stack.ramp.getOffRamp(depositId)).toMatchObject({
      status: 'settled',
      endUserId: user.endUserId,
    });
    const listed = await stack.ramp.listProcesses({ endUserId: user.endUserId });
    expect(listed.map((entry) => entry.workflowId).sort()).toEqual(
      [offRampWorkflowId(depositId), onRampWorkflowId(reference)].sort(),
    );

    // A repeated startOnRamp for the ended process answers it; another end user for the reference is refused.
    await expect(stack.ramp.startOnRamp(user.endUserId, reference)).resolves.toMatchObject({
      workflowId: onRampWorkflowId(reference),
    });
    await expect(stack.ramp.startOnRamp(`${user.endUserId}-other`, reference)).rejects.toMatchObject({
      name: 'ConflictError',
    });
    expect(await runsOf(onRampWorkflowId(reference))).toHaveLength(1);
  });

  test('a late event for a process that timed out stays late: recorded, raised as an incident, the process not run again', async () => {
    // Only order-created is on time; no polling before the deadline (60 s) and a 3 s process timeout: the on-ramp gives
    // up before its late events arrive.
    stack = await startRampStack(client, connection, {
      sandbox: {
        faults: {
          deliveries: {
            delay: 1,
            delayMs: 9_000,
            eventTypes: ['order-updated', 'transaction-created', 'transaction-updated'],
          },
        },
      },
      timings: { stepDeadlineMs: 60_000, processTimeoutMs: 3_000 },
    });
    const reference = `timeout-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp('tina-7', reference);
    const fiat = await depositFiat(stack, reference);
    expect(await onRampEnded(stack, reference)).toMatchObject({ status: 'timed-out', endUserId: 'tina-7' });

    await delayedDeliveriesDone(stack);
    const late = await waitFor('the router to record the late event', async () => {
      const found = await lateEventsOn(stack!, [['order', fiat.orderId]]);
      return found.length > 0 ? found : undefined;
    });
    expect(late[0]).toMatchObject({ workflowId: onRampWorkflowId(reference), processStatus: 'timed-out' });
    const incident = await waitFor('the late-event incident', async () => {
      const alerts = await stack!.ramp.listAlerts({ kind: 'late-event-after-timeout' });
      return alerts.data.find(
        (entry) => entry.key === `late-event-after-timeout/${onRampWorkflowId(reference)}`,
      );
    });
    expect(incident.kind).toBe('late-event-after-timeout');
    await recordHistory(client, routerIdOf(stack, 'order', fiat.orderId), 'router-late-event-after-timeout', {
      running: true,
    });
    expect(await runsOf(onRampWorkflowId(reference))).toHaveLength(1);
    expect(await stack.ramp.getOnRamp(reference)).toMatchObject({ status: 'timed-out', endUserId: 'tina-7' });
  });
});
