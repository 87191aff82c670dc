import {
  acknowledge,
  incidentActionIssue,
  resolveByPerson,
  carriedState,
  currentDetails,
  incidentKey,
  newAlertsState,
  raise,
  RESOLVED_KEPT,
  resolve,
  searchAttributes,
} from '../../../../workflows/operations/alerts/incidents';
import type { AlertsState, RaiseAlertRequest } from '../../../../workflows/operations/alerts/types';
import { Networks, RampStatus } from '../../../../src/domain/search-attributes';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:05:00.000Z';
const T2 = '2026-01-01T00:10:00.000Z';

function gasLow(requestId: string, overrides: Partial<RaiseAlertRequest> = {}): RaiseAlertRequest {
  const details = { network: 'networks/tron-mainnet', gasWalletId: 'gas-1', balance: '3' };
  return {
    kind: 'gas-low',
    key: incidentKey('gas-low', details),
    message: 'Gas wallet gas-1 holds 3 TRX',
    workflowId: 'ops/gas-monitor',
    details,
    requestId,
    ...overrides,
  };
}

describe('incident keys', () => {
  test('a deposit, a wallet (with its network), a network, an owner, or the kind alone', () => {
    expect(incidentKey('gas-shortfall', { depositTransactionId: 'tx-1', network: 'n' })).toBe(
      'gas-shortfall/deposit/tx-1',
    );
    expect(incidentKey('unaccounted-funds', { walletId: 'w-1', network: 'networks/tron-mainnet' })).toBe(
      'unaccounted-funds/wallet/w-1/networks/tron-mainnet',
    );
    expect(incidentKey('unaccounted-funds', { walletId: 'w-1', network: null })).toBe(
      'unaccounted-funds/wallet/w-1',
    );
    expect(incidentKey('gas-low', { network: 'networks/ethereum-mainnet' })).toBe(
      'gas-low/networks/ethereum-mainnet',
    );
    expect(incidentKey('extra-wallet', { walletOwner: 'end-user/alice' })).toBe(
      'extra-wallet/end-user/alice',
    );
    expect(incidentKey('late-event-after-timeout', { process: 'offramp/tx-9' })).toBe(
      'late-event-after-timeout/offramp/tx-9',
    );
    expect(incidentKey('gas-low', { depositTransactionId: '', balance: 3 })).toBe('gas-low');
  });

  test('an undelivered outcome event is one incident per webhook id, even for the same deposit', () => {
    const first = incidentKey('outcome-event-undelivered', {
      webhookId: 'evt_offramp~tx-1~1',
      depositTransactionId: 'tx-1',
    });
    const second = incidentKey('outcome-event-undelivered', {
      webhookId: 'evt_offramp~tx-1~2',
      depositTransactionId: 'tx-1',
    });
    expect(first).toBe('outcome-event-undelivered/event/evt_offramp~tx-1~1');
    expect(second).not.toBe(first);
  });
});

describe('the incident store state', () => {
  test('a first run starts empty, counts itself and remembers when it started', () => {
    expect(newAlertsState(undefined, T0)).toEqual({
      open: [],
      recentlyResolved: [],
      raisedTotal: 0,
      resolvedTotal: 0,
      runs: 1,
      since: T0,
    });
  });

  test('a continued run takes over the incidents and counters, one run more, the first start kept', () => {
    const first = newAlertsState(undefined, T0);
    raise(first, gasLow('a/1/1'), T0);
    const next = newAlertsState(carriedState(first), T2);
    expect(next).toEqual({ ...first, runs: 2, since: T0 });
    expect(carriedState(next)).toEqual(next);
  });
});

describe('raising an alert', () => {
  test('the first raise opens an incident and notifies', () => {
    const state = newAlertsState(undefined, T0);
    const answer = raise(state, gasLow('gas/run-1/1'), T0);
    expect(answer).toEqual({
      key: 'gas-low/networks/tron-mainnet',
      isNew: true,
      notify: true,
      occurrences: 1,
    });
    expect(state.raisedTotal).toBe(1);
    expect(state.open).toEqual([
      {
        key: 'gas-low/networks/tron-mainnet',
        kind: 'gas-low',
        network: 'networks/tron-mainnet',
        depositTransactionId: null,
        message: 'Gas wallet gas-1 holds 3 TRX',
        workflowId: 'ops/gas-monitor',
        lastWorkflowId: 'ops/gas-monitor',
        details: { network: 'networks/tron-mainnet', gasWalletId: 'gas-1', balance: '3' },
        firstSeen: T0,
        lastSeen: T0,
        occurrences: 1,
        openedBy: 'gas/run-1/1',
      },
    ]);
  });

  test('a later raise of the same key counts an occurrence, takes the latest details, and does not notify', () => {
    const state = newAlertsState(undefined, T0);
    raise(state, gasLow('gas/run-1/1'), T0);
    const details = { network: 'networks/tron-mainnet', gasWalletId: 'gas-1', balance: '2' };
    const answer = raise(state, gasLow('gas/run-2/1', { workflowId: 'ops/gas-monitor-2', details }), T1);
    expect(answer).toEqual({
      key: 'gas-low/networks/tron-mainnet',
      isNew: false,
      notify: false,
      occurrences: 2,
    });
    expect(state.open).toHaveLength(1);
    expect(state.open[0]).toMatchObject({
      firstSeen: T0,
      lastSeen: T1,
      occurrences: 2,
      workflowId: 'ops/gas-monitor',
      lastWorkflowId: 'ops/gas-monitor-2',
      details,
      openedBy: 'gas/run-1/1',
    });
    expect(state.raisedTotal).toBe(1);
  });

  test('a retry of the raise that opened the incident notifies again (its webhook may have failed)', () => {
    const state = newAlertsState(undefined, T0);
    raise(state, gasLow('gas/run-1/1'), T0);
    expect(raise(state, gasLow('gas/run-1/1'), T1)).toMatchObject({
      isNew: false,
      notify: true,
      occurrences: 2,
    });
  });

  test('the incident takes its network and deposit from the details only when they are text', () => {
    const state = newAlertsState(undefined, T0);
    raise(
      state,
      {
        kind: 'gas-shortfall',
        key: 'gas-shortfall/deposit/tx-1',
        message: 'stuck',
        workflowId: 'offramp/tx-1',
        details: { depositTransactionId: 'tx-1', network: null },
        requestId: 'r',
      },
      T0,
    );
    expect(state.open[0]).toMatchObject({ depositTransactionId: 'tx-1', network: null });
  });
});

describe('resolving an alert', () => {
  test('closes the open incident, keeps it newest first among the resolved, and notifies', () => {
    const state = newAlertsState(undefined, T0);
    raise(state, gasLow('gas/run-1/1'), T0);
    const answer = resolve(
      state,
      { key: 'gas-low/networks/tron-mainnet', requestId: 'gas/run-3/2', resolution: 'funded' },
      T2,
    );
    expect(answer).toMatchObject({ key: 'gas-low/networks/tron-mainnet', wasOpen: true, notify: true });
    expect(answer.incident).toMatchObject({ key: 'gas-low/networks/tron-mainnet', firstSeen: T0 });
    expect(answer.incident).not.toHaveProperty('resolvedAt');
    expect(state.open).toEqual([]);
    expect(state.resolvedTotal).toBe(1);
    expect(state.recentlyResolved[0]).toMatchObject({
      key: 'gas-low/networks/tron-mainnet',
      resolvedAt: T2,
      resolution: 'funded',
      resolvedBy: 'gas/run-3/2',
    });
  });

  test('with nothing open it changes nothing; only a retry of the closing resolve notifies again', () => {
    const state = newAlertsState(undefined, T0);
    raise(state, gasLow('gas/run-1/1'), T0);
    const request = { key: 'gas-low/networks/tron-mainnet', requestId: 'gas/run-3/2', resolution: 'funded' };
    resolve(state, request, T1);
    const before = structuredClone(state);

    const retry = resolve(state, request, T2);
    expect(retry).toMatchObject({ key: request.key, wasOpen: false, notify: true });
    expect(retry.incident).toMatchObject({ resolvedBy: 'gas/run-3/2', resolvedAt: T1 });

    const other = resolve(state, { ...request, requestId: 'gas/run-4/2' }, T2);
    expect(other).toEqual({ key: request.key, wasOpen: false, notify: false });

    expect(resolve(state, { key: 'never-opened', requestId: 'x', resolution: 'y' }, T2)).toEqual({
      key: 'never-opened',
      wasOpen: false,
      notify: false,
    });
    expect(state).toEqual(before);
  });

  test(`keeps only the last ${RESOLVED_KEPT} resolved incidents`, () => {
    const state = newAlertsState(undefined, T0);
    for (let n = 0; n < RESOLVED_KEPT + 3; n += 1) {
      const details = { network: `net-${n}` };
      const key = incidentKey('gas-low', details);
      raise(state, { ...gasLow(`r-${n}`), key, details }, T0);
      resolve(state, { key, requestId: `s-${n}`, resolution: 'ok' }, T1);
    }
    expect(state.recentlyResolved).toHaveLength(RESOLVED_KEPT);
    expect(state.recentlyResolved[0]!.key).toBe(`gas-low/net-${RESOLVED_KEPT + 2}`);
    expect(state.resolvedTotal).toBe(RESOLVED_KEPT + 3);
  });
});

describe('what the store shows', () => {
  function withOpen(): AlertsState {
    const state = newAlertsState(undefined, T0);
    raise(state, gasLow('a'), T0);
    raise(state, gasLow('b'), T1);
    const ethereum = { network: 'networks/ethereum-mainnet' };
    raise(
      state,
      { ...gasLow('c'), key: incidentKey('gas-low', ethereum), details: ethereum, message: 'low ETH' },
      T1,
    );
    const deposit = { depositTransactionId: 'tx-1', network: 'networks/tron-mainnet' };
    raise(
      state,
      { ...gasLow('d'), kind: 'gas-shortfall', key: 'gas-shortfall/deposit/tx-1', details: deposit },
      T2,
    );
    const owner = { walletOwner: 'end-user/alice' };
    raise(
      state,
      { ...gasLow('e'), kind: 'extra-wallet', key: 'extra-wallet/end-user/alice', details: owner },
      T2,
    );
    return state;
  }

  test('current details list every open incident with its first and last sighting and count', () => {
    expect(currentDetails(withOpen())).toBe(
      [
        '4 open incident(s):',
        `- gas-low/networks/tron-mainnet: Gas wallet gas-1 holds 3 TRX (first ${T0}, last ${T1}, x2)`,
        `- gas-low/networks/ethereum-mainnet: low ETH (first ${T1}, last ${T1}, x1)`,
        `- gas-shortfall/deposit/tx-1: Gas wallet gas-1 holds 3 TRX (first ${T2}, last ${T2}, x1)`,
        `- extra-wallet/end-user/alice: Gas wallet gas-1 holds 3 TRX (first ${T2}, last ${T2}, x1)`,
      ].join('\n'),
    );
  });

  test('all clear: the totals since the first run', () => {
    const state = newAlertsState(
      { ...carriedState(newAlertsState(undefined, T0)), raisedTotal: 4, resolvedTotal: 4 },
      T2,
    );
    expect(currentDetails(state)).toBe(`All clear: no open incidents (4 raised, 4 resolved since ${T0})`);
  });

  test('search attributes: incidents-open with each network once, in order of the incidents', () => {
    expect(searchAttributes(withOpen())).toEqual([
      { key: RampStatus, value: 'incidents-open' },
      { key: Networks, value: ['networks/tron-mainnet', 'networks/ethereum-mainnet'] },
    ]);
    expect(searchAttributes(newAlertsState(undefined, T0))).toEqual([
      { key: RampStatus, value: 'all-clear' },
      { key: Networks, value: [] },
    ]);
  });
});

describe('a person acting on an incident', () => {
  const opened = () => {
    const state = newAlertsState(undefined, '2026-01-01T00:00:00.000Z');
    raise(
      state,
      {
        kind: 'gas-low',
        message: 'low',
        workflowId: 'ops/gas-monitor',
        details: { network: 'networks/tron-mainnet' },
        key: 'gas-low/networks/tron-mainnet',
        requestId: 'r1',
      },
      '2026-01-01T00:00:00.000Z',
    );
    return state;
  };

  test('acknowledging keeps who, why and when; resolving moves it to the resolved with resolvedBy person/<who>', () => {
    const state = opened();
    const action = { key: 'gas-low/networks/tron-mainnet', by: ' ana ', reason: ' on it ' };
    expect(incidentActionIssue(state, action)).toBeUndefined();
    expect(acknowledge(state, action, '2026-01-01T00:01:00.000Z').acknowledged).toEqual({
      by: 'ana',
      reason: 'on it',
      at: '2026-01-01T00:01:00.000Z',
    });
    expect(currentDetails(state)).toContain('acknowledged by ana: on it');
    const resolved = resolveByPerson(state, { ...action, reason: 'funded' }, '2026-01-01T00:02:00.000Z');
    expect(resolved).toMatchObject({
      resolvedBy: 'person/ana',
      resolution: 'funded',
      acknowledged: { by: 'ana' },
    });
    expect(state.open).toEqual([]);
    expect(state.resolvedTotal).toBe(1);
  });

  test('refused: no open incident of that key, or who or why missing or too long', () => {
    const state = opened();
    const key = 'gas-low/networks/tron-mainnet';
    expect(incidentActionIssue(state, { key: 'gas-low/other', by: 'a', reason: 'b' })?.type).toBe(
      'IncidentNotOpen',
    );
    for (const action of [
      { key, by: '', reason: 'b' },
      { key, by: 'a', reason: ' ' },
      { key, by: 'a'.repeat(101), reason: 'b' },
      { key: '', by: 'a', reason: 'b' },
    ])
      expect(incidentActionIssue(state, action)?.type).toBe('InvalidIncidentAction');
  });
});

describe("a ramp's exceptions", () => {
  test('are one incident per ramp and reason', () => {
    expect(incidentKey('ramp-exception', { depositTransactionId: 'dep-1', reason: 'below_minimum' })).toBe(
      'ramp-exception/deposit/dep-1/below_minimum',
    );
    expect(incidentKey('ramp-exception', { process: 'onramp/ref-1', reason: 'off_quote' })).toBe(
      'ramp-exception/onramp/ref-1/off_quote',
    );
    expect(incidentKey('unclaimed-on-ramp', { process: 'onramp/ref-1', orderReference: 'ref-1' })).toBe(
      'unclaimed-on-ramp/onramp/ref-1',
    );
  });

  test("other kinds' reasons only describe: the gas wallet's incident stays one per network", () => {
    expect(incidentKey('gas-low', { network: 'networks/tron-mainnet', reason: 'below-minimum' })).toBe(
      'gas-low/networks/tron-mainnet',
    );
  });
});
