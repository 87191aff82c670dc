import {
  callBudget,
  type EndUserWallet,
  handOverAction,
  heldOfRow,
  offRampDeposits,
  operatorAhead,
  startAction,
  statusMismatch,
  transactionsAhead,
  unaccountedFunds,
  unknownDeposit,
  walletsDue,
} from '../../../../activities/operations/reconcile/checks';
import type { OffRampView, OnRampView } from '../../../../src/ledger/views';
import type { Transaction, WalletAddress } from '../../../../src/operator/schemas';
import type { TransactionSnapshot } from '../../../../workflows/ramps/shared/snapshots';

const TRON = 'networks/tron-mainnet';
const ETHEREUM = 'networks/ethereum-mainnet';
const WALLET: EndUserWallet = { workflowId: 'end-user/alice', walletId: 'w-1', endUserId: 'alice' };

const tx = (id: string, overrides: Partial<Transaction> = {}): Transaction => ({
  id,
  status: 'confirmed',
  type: 'Deposit',
  walletId: 'w-1',
  ...overrides,
});

const snapshot = (id: string, status: string) => ({ id, status }) as TransactionSnapshot;

describe('the budget and the wallets a run checks', () => {
  test('an interval of operator calls: ten a second', () => {
    expect(callBudget(3_600_000)).toBe(36_000);
    expect(callBudget(1_500)).toBe(15);
  });

  test('a wallet is due when never checked, a day less an interval after its check, or active in the last day', () => {
    expect(walletsDue('2026-01-02T00:00:00.000Z', 3_600_000)).toEqual({
      runStartedAt: '2026-01-02T00:00:00.000Z',
      staleBefore: '2026-01-01T01:00:00.000Z',
      activeSince: '2026-01-01T00:00:00.000Z',
    });
    // An interval of a day or more: every wallet at every run.
    expect(walletsDue('2026-01-02T00:00:00.000Z', 2 * 86_400_000).staleBefore).toBe(
      '2026-01-02T00:00:00.000Z',
    );
  });
});

describe('an open ramp against the ledger', () => {
  const held = { deposit: { id: 'd', status: 'published' }, order: { id: 'o', status: 'awaiting_funds' } };

  test('the operator is ahead when it ranks a resource past what the ledger holds, or has one the ledger lacks', () => {
    expect(
      operatorAhead(held, { deposit: { status: 'published' }, order: { status: 'awaiting_funds' } }),
    ).toBe(false);
    expect(operatorAhead(held, { deposit: { status: 'confirmed' } })).toBe(true);
    expect(operatorAhead(held, { order: { status: 'executed' } })).toBe(true);
    expect(operatorAhead(held, { deposit: { status: 'published' }, sweep: { status: 'created' } })).toBe(
      true,
    );
    expect(operatorAhead(held, { deposit: { status: 'created' }, sweep: undefined })).toBe(false);
  });

  test('a row written before the ledger kept resources holds what its view shows', () => {
    const offView = { deposit: { transactionId: 'd', status: 'confirmed' }, orderId: 'o' } as OffRampView;
    expect(heldOfRow({ direction: 'off-ramp', view: offView, resources: null })).toEqual({
      deposit: { id: 'd', status: 'confirmed' },
    });
    const onView = { order: { id: 'o', status: 'executed' }, deposit: null } as unknown as OnRampView;
    expect(heldOfRow({ direction: 'on-ramp', view: onView, resources: null })).toEqual({
      order: { id: 'o', status: 'executed' },
    });
    expect(heldOfRow({ direction: 'on-ramp', view: onView, resources: held })).toBe(held);
  });

  test('a hand-over to a process that had ended says so', () => {
    expect(handOverAction({ workflowId: 'offramp/a' })).toBe('handed the fresh snapshot to the process');
    expect(
      handOverAction({
        workflowId: 'offramp/a',
        closed: { executionStatus: 'COMPLETED', status: 'settled', closedAt: null },
      }),
    ).toBe('not handed over: the process had ended (settled)');
  });
});

describe('an open ramp against its process', () => {
  test('a transaction is ahead when the operator ranks it past what the process holds', () => {
    const state = {
      deposit: snapshot('d', 'published'),
      sweep: snapshot('s', 'confirmed'),
      gasTopUp: undefined,
      orderTransaction: snapshot('o', 'completed'),
    };
    const ahead = transactionsAhead(state, [
      ['deposit', snapshot('d', 'confirmed')],
      ['sweep', snapshot('s', 'confirmed')],
      ['gasTopUp', snapshot('g', 'created')],
      ['orderTransaction', snapshot('o', 'failed')],
    ]);
    expect(ahead.map(({ role, fresh }) => [role, fresh.status])).toEqual([
      ['deposit', 'confirmed'],
      ['gasTopUp', 'created'],
      ['orderTransaction', 'failed'],
    ]);
  });

  test('a resource not read is never ahead, and an older read never is', () => {
    const state = { deposit: snapshot('d', 'completed') };
    expect(
      transactionsAhead(state, [
        ['deposit', snapshot('d', 'mined')],
        ['sweep', undefined],
      ]),
    ).toEqual([]);
  });

  test("a mismatch names the process, its end user, and 'unknown' for what it has not seen", () => {
    const process = { workflowId: 'offramp/d', endUserId: null };
    expect(statusMismatch(process, 'sweep s', undefined, 'published', 'handed over')).toEqual({
      kind: 'status-mismatch',
      workflowId: 'offramp/d',
      subject: 'sweep s',
      ours: 'unknown',
      operator: 'published',
      action: 'handed over',
      endUserId: null,
    });
    expect(statusMismatch(process, 'order o', 'awaiting_funds', 'executed', 'x').ours).toBe('awaiting_funds');
  });
});

describe('the deposit wallets', () => {
  test("an off-ramp's deposits are the wallet's deposits without an order", () => {
    const deposits = offRampDeposits([
      tx('a'),
      tx('b', { orderId: 'o-1' }),
      tx('c', { type: 'AutoSweep' }),
      tx('d', { status: 'failed' }),
    ]);
    expect(deposits.map((deposit) => deposit.id)).toEqual(['a', 'd']);
  });

  test('what starting a missing off-ramp did', () => {
    expect(startAction({ workflowId: 'offramp/a' })).toBe('started its off-ramp (signal-with-start)');
    const closed = { executionStatus: 'COMPLETED', status: 'settled', closedAt: null };
    expect(startAction({ workflowId: 'offramp/a', closed })).toBe('its off-ramp had already ended (settled)');
    expect(startAction({ workflowId: 'offramp/a', closed: { ...closed, status: null } })).toBe(
      'its off-ramp had already ended (COMPLETED)',
    );
  });

  test('an unknown deposit carries the network, asset and amount the operator gave', () => {
    expect(
      unknownDeposit(tx('a', { network: TRON, asset: 'USDT', amount: '5' }), 'offramp/a', WALLET, 'x'),
    ).toEqual({
      kind: 'unknown-deposit',
      workflowId: 'offramp/a',
      subject: 'deposit a',
      ours: 'no process',
      operator: 'confirmed',
      action: 'x',
      endUserId: 'alice',
      walletId: 'w-1',
      network: TRON,
      asset: 'USDT',
      amount: '5',
    });
    expect(Object.keys(unknownDeposit(tx('b'), 'offramp/b', WALLET, 'x'))).not.toContain('network');
  });

  test('unaccounted funds: token balances above zero on a network no running off-ramp covers', () => {
    const entries = [
      {
        id: 'a1',
        address: 'T1',
        network: { name: TRON },
        balances: [
          { asset: 'USDT', amount: '30' },
          { asset: 'TRX', amount: '12' },
        ],
      },
      {
        id: 'a2',
        address: '0x1',
        network: { name: ETHEREUM },
        balances: [
          { asset: 'USDC', amount: '10' },
          { asset: 'USDT', amount: '0.00' },
          { asset: 'ETH', amount: '1' },
        ],
      },
    ] as WalletAddress[];
    const found = unaccountedFunds(WALLET, entries, (network) => network === TRON);
    expect(found).toEqual([
      {
        kind: 'unaccounted-funds',
        workflowId: 'end-user/alice',
        subject: `wallet w-1 ${ETHEREUM} USDC`,
        ours: 'no open off-ramp',
        operator: '10 USDC',
        action: 'alert raised',
        endUserId: 'alice',
        walletId: 'w-1',
        network: ETHEREUM,
        asset: 'USDC',
        amount: '10',
      },
    ]);
    expect(unaccountedFunds(WALLET, entries, () => false).map((finding) => finding.subject)).toEqual([
      `wallet w-1 ${TRON} USDT`,
      `wallet w-1 ${ETHEREUM} USDC`,
    ]);
    expect(unaccountedFunds(WALLET, entries, () => true)).toEqual([]);
  });
});
