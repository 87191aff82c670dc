/**
 * Operations on the real dev server + sandbox: reconciliation of a deposit whose every delivery was lost.
 */
import { randomUUID } from 'node:crypto';
import { offRampWorkflowId } from '../../../../src/domain/ids';
import type { reconcileWorkflow } from '../../../../workflows/operations/reconcile/workflow';
import { depositCrypto, endUserWithWallet, offRampEnded, useRampStacks } from '../../../helpers/ramp-stack';
import { recordHistory } from '../../../helpers/histories';

describe('operations: reconciliation', () => {
  const stacks = useRampStacks();

  test('a deposit whose every delivery was dropped is found by reconciliation and settles', async () => {
    const stack = await stacks.start({ sandbox: { faults: { deliveries: { drop: 1 } } } });
    const s = stack;
    const user = await endUserWithWallet(s);
    const depositId = await depositCrypto(s, user.address);
    // No webhook ever arrives: the sandbox completes its own side; nothing runs on ours.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(s.ramp.getOffRamp(depositId)).rejects.toThrow(/No off-ramp/);

    const reconcileId = `ops/reconcile-test-${randomUUID()}`;
    const result = await stacks.client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: reconcileId,
      taskQueue: s.worker.taskQueue,
      args: [{ timings: s.timings }],
    });
    expect(result.transactionListing).toBe(true);
    expect(result.walletsChecked).toBe(1);
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        kind: 'unknown-deposit',
        subject: `deposit ${depositId}`,
        workflowId: offRampWorkflowId(depositId),
        endUserId: user.endUserId,
      }),
    );

    const state = await offRampEnded(s, depositId);
    expect(state).toMatchObject({ status: 'settled', endUserId: user.endUserId, fiatAmount: '858.18' });
    expect(s.sandbox.deliveries().filter((attempt) => attempt.outcome === 'delivered')).toHaveLength(0);

    // A second pass finds nothing new: the off-ramp is known now.
    const again = await stacks.client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: `${reconcileId}-2`,
      taskQueue: s.worker.taskQueue,
      args: [{ timings: s.timings }],
    });
    expect(again.findings.filter((finding) => finding.kind === 'unknown-deposit')).toHaveLength(0);
    await recordHistory(stacks.client, reconcileId, 'reconcile-unknown-deposit');
  });
});
