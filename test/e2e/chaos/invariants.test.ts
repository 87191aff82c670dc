/**
 * The chaos suite's rules on hand-made inputs: each must flag what it exists to flag, or a clean chaos run
 * would prove nothing.
 */
import {
  countPendingDeliveries,
  duplicateRunCount,
  findDuplicateRuns,
  groupRuns,
  ownerOfLabel,
  processCount,
  reachedEnd,
  recordedExtraWallets,
  type RunInfo,
  unrecordedWallets,
} from './invariants';

let clock = Date.parse('2030-01-01T00:00:00Z');
function run(workflowId: string, status: string, rampStatus?: string): RunInfo {
  clock += 1_000;
  return {
    workflowId,
    runId: `run-${clock}`,
    type: 'any',
    status,
    startTime: new Date(clock),
    closeTime: status === 'RUNNING' ? undefined : new Date(clock + 500),
    rampStatus,
  };
}

describe('one run per process ID', () => {
  test('a continue-as-new chain is one process; a second run after the first completed is a duplicate', () => {
    const byId = groupRuns([
      run('end-user/a', 'CONTINUED_AS_NEW', 'wallet-ready'),
      run('end-user/a', 'CONTINUED_AS_NEW', 'wallet-ready'),
      run('end-user/a', 'RUNNING', 'wallet-ready'),
      run('offramp/d1', 'COMPLETED', 'settled'),
      run('offramp/d1', 'COMPLETED', 'settled'),
      run('onramp/r1', 'COMPLETED', 'expired'),
      run('onramp/r1', 'COMPLETED', 'expired'),
      run('onramp/r1', 'RUNNING', 'awaiting-order'),
      run('account-setup', 'RUNNING', 'ready'),
    ]);
    expect(processCount(byId.get('end-user/a')!)).toBe(1);
    const duplicates = findDuplicateRuns(byId);
    expect(duplicates.map((finding) => finding.workflowId)).toEqual(['offramp/d1', 'onramp/r1']);
    expect(duplicateRunCount(duplicates)).toBe(3);
  });

  test('routers may run many times (they continue as new)', () => {
    const byId = groupRuns([run('routes/q/1', 'CONTINUED_AS_NEW'), run('routes/q/1', 'RUNNING')]);
    expect(findDuplicateRuns(byId)).toEqual([]);
  });
});

describe('every process at its expected end', () => {
  test('a ramp must have completed with the expected status; an end user must be running with its wallet', () => {
    expect(
      reachedEnd({ kind: 'closed', status: 'settled' }, [run('offramp/x', 'COMPLETED', 'settled')]),
    ).toBe(true);
    expect(
      reachedEnd({ kind: 'closed', status: 'settled' }, [run('offramp/x', 'COMPLETED', 'timed-out')]),
    ).toBe(false);
    expect(
      reachedEnd({ kind: 'closed', status: 'settled' }, [run('offramp/x', 'RUNNING', 'awaiting-sweep')]),
    ).toBe(false);
    expect(reachedEnd({ kind: 'closed', status: 'expired' }, [run('onramp/x', 'FAILED', 'expired')])).toBe(
      false,
    );
    expect(reachedEnd({ kind: 'closed', status: 'settled' }, undefined)).toBe(false);
    expect(
      reachedEnd({ kind: 'running', status: 'wallet-ready' }, [
        run('end-user/x', 'RUNNING', 'wallet-pending'),
      ]),
    ).toBe(false);
    expect(
      reachedEnd({ kind: 'running', status: 'wallet-ready' }, [
        run('end-user/x', 'CONTINUED_AS_NEW', 'wallet-ready'),
        run('end-user/x', 'RUNNING', 'wallet-ready'),
      ]),
    ).toBe(true);
  });
});

describe('one wallet per end user, or every extra one recorded', () => {
  test('orphans and unconfirmed creations both account for an extra operator wallet', () => {
    const state = {
      orphanWallets: [{ walletId: 'w2' }],
      walletJournal: { requests: [], unconfirmed: [{ attempt: 1 }] },
    };
    expect(recordedExtraWallets(state)).toBe(2);
    expect(unrecordedWallets(3, state)).toBe(0);
    expect(unrecordedWallets(4, state)).toBe(1);
    expect(unrecordedWallets(2, { orphanWallets: [] })).toBe(1);
    expect(unrecordedWallets(1, { orphanWallets: [] })).toBe(0);
    expect(unrecordedWallets(2, undefined)).toBe(1);
  });

  test('only end-user labels name an owner', () => {
    expect(ownerOfLabel('end-user:chaos-1-u3')).toBe('chaos-1-u3');
    expect(ownerOfLabel('ramp-orchestrator/gas')).toBeNull();
  });
});

describe('deliveries still to come', () => {
  test('an event without any attempt yet, or with a delivery not final, is pending', () => {
    const events = [
      { id: 'e1', eventType: 'transaction-updated', resourceId: 't', time: '' },
      { id: 'e2', eventType: 'transaction-updated', resourceId: 't', time: '' },
      { id: 'e3', eventType: 'order-updated', resourceId: 'o', time: '' },
    ];
    const record = (eventId: string, deliveryId: string, final: boolean) => ({
      deliveryId,
      eventId,
      eventType: 'transaction-updated',
      resourceId: 't',
      attempt: 1,
      time: '',
      outcome: final ? ('delivered' as const) : ('failed' as const),
      final,
    });
    expect(countPendingDeliveries(events, [record('e1', 'd1', true)])).toBe(2);
    expect(
      countPendingDeliveries(events, [
        record('e1', 'd1', true),
        record('e2', 'd2', false),
        record('e3', 'd3', true),
      ]),
    ).toBe(1);
    expect(
      countPendingDeliveries(events, [
        record('e1', 'd1', true),
        record('e2', 'd2', false),
        record('e2', 'd2', true),
        record('e3', 'd3', true),
      ]),
    ).toBe(0);
  });
});
