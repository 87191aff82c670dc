import {
  ACCOUNT_WALLET_LABELS,
  DEFAULT_ALERTS_WORKFLOW_ID,
  DEFAULT_PROCESS_IDS,
  depositTransactionIdFromWorkflowId,
  depositWalletLabel,
  endUserIdFromWorkflowId,
  endUserWorkflowId,
  manualReconcileWorkflowId,
  offRampWorkflowId,
  onRampWorkflowId,
  orderReferenceFromWorkflowId,
  outcomeRedeliveryWorkflowId,
  quoteWorkflowId,
  resourceKey,
  ROUTER_SHARDS,
  routerWorkflowId,
  scheduledWorkflowId,
  UNKNOWN_EVENTS_WORKFLOW_ID,
  WORKFLOW_TYPES,
} from '../../../src/domain/ids';
import * as workflows from '../../../workflows';

describe('routerWorkflowId', () => {
  test('spreads resources over every router, within the task queue', () => {
    const perRouter = new Map<string, number>();
    for (let index = 0; index < 400; index += 1) {
      const id = routerWorkflowId('ramp', 'transaction', `tx-${index}`);
      perRouter.set(id, (perRouter.get(id) ?? 0) + 1);
    }
    expect(perRouter.size).toBe(ROUTER_SHARDS);
    for (const [id, count] of perRouter) {
      expect(id).toMatch(/^routes\/ramp\/[0-3]$/);
      expect(count).toBeGreaterThan(50);
      expect(count).toBeLessThan(150);
    }
    expect(routerWorkflowId('other-queue', 'transaction', 'tx-1')).toBe('routes/other-queue/2');
  });
});

// Running processes and recorded histories carry these formats: a change here is a breaking change.
describe('workflow IDs and labels', () => {
  test('each process ID has its fixed format', () => {
    expect(endUserWorkflowId('alice')).toBe('end-user/alice');
    expect(offRampWorkflowId('tx-1')).toBe('offramp/tx-1');
    expect(onRampWorkflowId('ref-1')).toBe('onramp/ref-1');
    expect(resourceKey('transaction', 'tx-1')).toBe('transaction/tx-1');
    expect(resourceKey('order', 'o-1')).toBe('order/o-1');
    // The router a resource hashes to must not move between releases (FNV-1a of kind/<id>).
    expect(routerWorkflowId('ramp', 'transaction', 'tx-1')).toBe('routes/ramp/2');
    expect(routerWorkflowId('ramp', 'order', 'o-1')).toBe('routes/ramp/3');
    expect(UNKNOWN_EVENTS_WORKFLOW_ID).toBe('webhooks/unknown-events');
    expect(quoteWorkflowId('0b6c')).toBe('quote/0b6c');
    expect(outcomeRedeliveryWorkflowId('evt_offramp~tx-1~2', 'r-1')).toBe(
      'outcome-redelivery/evt_offramp~tx-1~2/r-1',
    );
    expect(DEFAULT_PROCESS_IDS).toEqual({ accountSetupWorkflowId: 'account-setup' });
    expect(DEFAULT_ALERTS_WORKFLOW_ID).toBe('ops/alerts');
    expect(scheduledWorkflowId('', 'gas-monitor')).toBe('ops/gas-monitor');
    expect(scheduledWorkflowId('t1-', 'reconcile')).toBe('ops/t1-reconcile');
    expect(manualReconcileWorkflowId(new Date('2026-01-02T03:04:05.000Z'))).toBe(
      'ops/reconcile-manual-2026-01-02T03:04:05.000Z',
    );
  });

  test('an end-user workflow ID gives back its end user, any other ID nothing', () => {
    for (const endUserId of ['alice', 'a:b@c.d', 'end-user']) {
      expect(endUserIdFromWorkflowId(endUserWorkflowId(endUserId))).toBe(endUserId);
    }
    expect(endUserIdFromWorkflowId('offramp/tx-1')).toBeUndefined();
    expect(endUserIdFromWorkflowId('end-user')).toBeUndefined();
    expect(endUserIdFromWorkflowId('end-user/')).toBeUndefined();
  });

  test('an off-ramp workflow ID gives back its deposit, any other ID nothing', () => {
    for (const deposit of ['tx-1', 'a:b@c.d', 'offramp']) {
      expect(depositTransactionIdFromWorkflowId(offRampWorkflowId(deposit))).toBe(deposit);
    }
    for (const other of [
      'onramp/tx-1',
      'end-user/tx-1',
      'transaction/tx-1',
      'offramp',
      'offramp/',
      'x/offramp/tx-1',
    ])
      expect(depositTransactionIdFromWorkflowId(other)).toBeUndefined();
  });

  test('an on-ramp workflow ID gives back its order reference, any other ID nothing', () => {
    for (const reference of ['ref-1', 'a:b@c.d', 'onramp']) {
      expect(orderReferenceFromWorkflowId(onRampWorkflowId(reference))).toBe(reference);
    }
    for (const other of ['offramp/ref-1', 'order/ref-1', 'onramp', 'onramp/'])
      expect(orderReferenceFromWorkflowId(other)).toBeUndefined();
  });

  test('operator wallet labels', () => {
    expect(depositWalletLabel('alice')).toBe('end-user:alice');
    expect(ACCOUNT_WALLET_LABELS).toEqual({
      master: 'ramp-orchestrator/master',
      gas: 'ramp-orchestrator/gas',
    });
  });

  test('WORKFLOW_TYPES are exactly the workflows the worker bundles', () => {
    expect(Object.values(WORKFLOW_TYPES).sort()).toEqual(Object.keys(workflows).sort());
  });
});
