import {
  type EndUserWallet,
  offRampDeposits,
  openRampsQuery,
  runningEndUsersQuery,
  runningOffRampsOfWalletQuery,
  startAction,
  statusMismatch,
  transactionsAhead,
  unaccountedFunds,
  unknownDeposit,
} from '../../../../activities/operations/reconcile/checks';
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

describe('the visibility queries', () => {
  test('name the task queue, the workflow type and the wallet', () => {
    expect(openRampsQuery('q1')).toBe(
      "TaskQueue = 'q1' AND ExecutionStatus = 'Running' AND RampDirection IN ('on-ramp', 'off-ramp')",
    );
    expect(runningEndUsersQuery('q1')).toBe(
      "TaskQueue = 'q1' AND WorkflowType = 'endUserWorkflow' AND ExecutionStatus = 'Running'",
    );
    expect(runningOffRampsOfWalletQuery('q1', 'w-1')).toBe(
      "TaskQueue = 'q1' AND WorkflowType = 'offRampWorkflow' AND ExecutionStatus = 'Running' AND RampWalletId = 'w-1'",
    );
  });

  test("drop the characters of an operator's wallet ID that could end the quoted value", () => {
    expect(runningOffRampsOfWalletQuery('q1', "w-1' OR '1'='1")).toMatch(/RampWalletId = 'w-1OR11'$/);
  });
});

describe('the open processes', () => {
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
    expect(startAction({ workflowId: 'offramp/a', delivered: true })).toBe(
      'started its off-ramp (signal-with-start)',
    );
    const closed = { executionStatus: 'COMPLETED', status: 'settled', closedAt: null };
    expect(startAction({ workflowId: 'offramp/a', delivered: false, closed })).toBe(
      'its off-ramp had already ended (settled)',
    );
    expect(
      startAction({ workflowId: 'offramp/a', delivered: false, closed: { ...closed, status: null } }),
    ).toBe('its off-ramp had already ended (COMPLETED)');
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
