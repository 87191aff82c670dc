import { incidentKey } from '../../../../workflows/operations/alerts/incidents';
import {
  currentDetails,
  findingsTable,
  unaccountedFundsAlert,
  unreadableProcess,
} from '../../../../workflows/operations/reconcile/findings';
import type { ReconcileFinding } from '../../../../workflows/operations/reconcile/types';

const FUNDS: ReconcileFinding = {
  kind: 'unaccounted-funds',
  workflowId: 'end-user/alice',
  subject: 'wallet w-1 networks/tron-mainnet USDT',
  ours: 'no open off-ramp',
  operator: '25 USDT',
  action: 'alert raised',
  endUserId: 'alice',
  walletId: 'w-1',
  network: 'networks/tron-mainnet',
  asset: 'USDT',
  amount: '25',
};

const MISMATCH: ReconcileFinding = {
  kind: 'status-mismatch',
  workflowId: 'offramp/tx-1',
  subject: 'deposit tx-1',
  ours: 'published',
  operator: 'confirmed',
  action: 'handed the fresh snapshot to the process',
};

describe('the unaccounted-funds alert', () => {
  test('names the wallet, amount and network, and records them for the incident', () => {
    expect(unaccountedFundsAlert(FUNDS, 'ops/reconcile')).toEqual({
      kind: 'unaccounted-funds',
      message: 'Deposit wallet w-1 holds 25 USDT on networks/tron-mainnet that no open off-ramp accounts for',
      workflowId: 'ops/reconcile',
      details: {
        walletId: 'w-1',
        network: 'networks/tron-mainnet',
        asset: 'USDT',
        amount: '25',
        endUserId: 'alice',
      },
    });
  });

  test('one incident per wallet and network', () => {
    const alert = unaccountedFundsAlert(FUNDS, 'ops/reconcile');
    expect(incidentKey(alert.kind, alert.details)).toBe('unaccounted-funds/wallet/w-1/networks/tron-mainnet');
  });

  test('what the finding lacks shows as ? in the text and null in the details', () => {
    const bare: ReconcileFinding = { ...MISMATCH, kind: 'unaccounted-funds' };
    const alert = unaccountedFundsAlert(bare, 'ops/reconcile-manual-x');
    expect(alert.message).toBe('Deposit wallet ? holds ?  on ? that no open off-ramp accounts for');
    expect(alert.details).toEqual({
      walletId: null,
      network: null,
      asset: null,
      amount: null,
      endUserId: null,
    });
  });
});

describe('the findings table and the one-pass run summary', () => {
  test('no findings: one line says so', () => {
    expect(findingsTable([])).toBe(
      'No findings: every open process matches the operator, no unaccounted funds.',
    );
  });

  test('columns are padded to the widest cell, without trailing spaces', () => {
    const started: ReconcileFinding = { ...MISMATCH, kind: 'unknown-deposit', workflowId: null };
    expect(findingsTable([MISMATCH, started]).split('\n')).toEqual([
      'kind             subject       ours       operator   action                                    workflow',
      'status-mismatch  deposit tx-1  published  confirmed  handed the fresh snapshot to the process  offramp/tx-1',
      'unknown-deposit  deposit tx-1  published  confirmed  handed the fresh snapshot to the process  -',
    ]);
  });

  test('current details: what was checked, then the table', () => {
    const details = currentDetails({
      startedAt: 'a',
      finishedAt: 'b',
      processesChecked: 3,
      walletsChecked: 2,
      transactionListing: true,
      found: {},
      findings: [],
    });
    expect(details).toBe(
      '3 processes, 2 deposit wallets checked\nNo findings: every open process matches the operator, no unaccounted funds.',
    );
  });
});

describe('unreadableProcess', () => {
  test('lists the process as skipped with the reason', () => {
    expect(unreadableProcess('offramp/tx-1', 'query timed out')).toEqual({
      kind: 'unreadable',
      workflowId: 'offramp/tx-1',
      subject: 'offramp/tx-1',
      ours: '?',
      operator: '?',
      action: 'skipped: query timed out',
    });
  });
});
