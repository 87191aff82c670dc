import type { WorkflowTimings } from '../../../src/domain/timings';
import {
  carriedState,
  continuedInput,
  depositWallet,
  extraWallets,
  linkOffRamp,
  newEndUserState,
  OFF_RAMPS_KEPT,
  QUOTED_DEPOSITS_KEPT,
  quoteOfDeposit,
  searchAttributes,
} from '../../../workflows/end-user/state';
import type { EndUserInput } from '../../../workflows/end-user/types';
import { journalRequest, newWalletJournal } from '../../../workflows/wallet-creation/journal';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const timings = { activityStartToCloseMs: 1000 } as WorkflowTimings;
const input: EndUserInput = { endUserId: 'u-1', endUserSearchValue: 'u-1', timings };
const wallet = {
  walletId: 'w-1',
  externalUserId: 'end-user:u-1',
  addresses: [{ network: 'networks/ethereum-mainnet', address: '0xabc' }],
  createdAt: T0,
};

describe('end-user state', () => {
  test('a first run starts empty, waiting for a wallet', () => {
    expect(newEndUserState(input, T0)).toEqual({
      endUserId: 'u-1',
      wallet: undefined,
      walletJournal: { requests: [], unconfirmed: [] },
      orphanWallets: [],
      extraWalletsReported: 0,
      createdAt: T0,
      runs: 1,
      walletStatus: 'none',
      recentOffRamps: [],
      outcomes: { sequence: 0, events: [] },
    });
  });

  test('a continued run takes over the carried state and counts itself', () => {
    const carried = {
      wallet,
      walletJournal: {
        ...newWalletJournal(),
        requests: [{ requestId: 'r/1#1', attempt: 1, requestedAt: T0, answeredWalletId: 'w-1' }],
      },
      orphanWallets: [{ walletId: 'w-0', reason: 'r', recordedAt: T0 }],
      extraWalletsReported: 1,
      createdAt: T0,
      runs: 2,
      recentOffRamps: ['d-1'],
      outcomes: { sequence: 3, events: [] },
    };
    const state = newEndUserState({ ...input, carried }, T1);
    expect(state).toMatchObject({ ...carried, runs: 3, walletStatus: 'ready', createdAt: T0 });
    // What it carries on is what it took over (with its own run count).
    expect(carriedState(state)).toEqual({ ...carried, runs: 3 });
  });

  test('the next run keeps the settings given and carries the state', () => {
    const state = newEndUserState(input, T0);
    const continued = continuedInput({ ...input, continueAsNewAfterEvents: 50 }, state);
    expect(continued).toEqual({ ...input, continueAsNewAfterEvents: 50, carried: carriedState(state) });
  });

  test('each off-ramp is linked once; the state keeps the last few, however many the user has', () => {
    const state = newEndUserState(input, T0);
    linkOffRamp(state, 'd-1');
    linkOffRamp(state, 'd-2');
    linkOffRamp(state, 'd-1');
    expect(state.recentOffRamps).toEqual(['d-1', 'd-2']);
    for (let index = 3; index <= 1_000; index += 1) linkOffRamp(state, `d-${index}`);
    expect(state.recentOffRamps).toHaveLength(OFF_RAMPS_KEPT);
    expect(state.recentOffRamps.at(-1)).toBe('d-1000');
    // A retried link of a recent one is known; the carried state stays the same size.
    linkOffRamp(state, 'd-999');
    expect(state.recentOffRamps).toHaveLength(OFF_RAMPS_KEPT);
    expect(JSON.stringify(carriedState(state)).length).toBeLessThan(4_000);
  });

  test('a run from before the ledger carried every off-ramp: the next keeps the last few', () => {
    const offRamps = Array.from({ length: 5_000 }, (_, index) => `d-${index}`);
    const carried = { ...carriedState(newEndUserState(input, T0)), offRamps, recentOffRamps: undefined };
    const state = newEndUserState({ ...input, carried: carried as never }, T1);
    expect(state.recentOffRamps).toEqual(offRamps.slice(-OFF_RAMPS_KEPT));
    expect(carriedState(state)).not.toHaveProperty('offRamps');
  });

  test('the wallet shown keeps only networks and addresses', () => {
    expect(
      depositWallet(
        { walletId: 'w-1', externalUserId: 'end-user:u-1' },
        [{ network: 'n', address: 'a', balances: [] }] as never,
        T1,
      ),
    ).toEqual({
      walletId: 'w-1',
      externalUserId: 'end-user:u-1',
      addresses: [{ network: 'n', address: 'a' }],
      createdAt: T1,
    });
  });

  test('search attributes: pending, failed, then ready with the wallet and its networks', () => {
    const state = newEndUserState(input, T0);
    const view = (values: ReturnType<typeof searchAttributes>) =>
      values.map(({ key, value }) => [key.name, value]);
    expect(view(searchAttributes(state, 'p-1'))).toEqual([
      ['RampEndUserId', 'p-1'],
      ['RampStatus', 'wallet-pending'],
    ]);
    state.walletStatus = 'failed';
    expect(view(searchAttributes(state, 'p-1'))[1]).toEqual(['RampStatus', 'wallet-failed']);
    state.wallet = wallet;
    state.walletStatus = 'ready';
    expect(view(searchAttributes(state, 'p-1'))).toEqual([
      ['RampEndUserId', 'p-1'],
      ['RampStatus', 'wallet-ready'],
      ['RampWalletId', 'w-1'],
      ['RampNetworks', ['networks/ethereum-mainnet']],
    ]);
  });

  test('extra wallets count the orphans and the unconfirmed creations of its journal', () => {
    const state = newEndUserState(input, T0);
    expect(extraWallets(state)).toBe(0);
    journalRequest(state.walletJournal, { requestId: 'r/1#1', attempt: 1, inFlightForMs: 1_000 }, false, T0);
    state.orphanWallets.push({ walletId: 'w-0', reason: 'r', recordedAt: T0 });
    expect(extraWallets(state)).toBe(2);
  });
});

describe('the quote shown for the next deposit', () => {
  const shown = {
    amountFrom: '100',
    targetAmount: '1716.37',
    expiresAt: '2026-01-01T00:00:25.000Z',
    coinFrom: 'USDT',
    coinTo: 'MXN',
    shownAt: '2026-01-01T00:00:00.000Z',
  };

  test('the next deposit to link takes it, once; an earlier deposit linked again takes nothing', () => {
    const state = newEndUserState(input, T0);
    linkOffRamp(state, 'dep-0');
    state.depositQuote = shown;
    linkOffRamp(state, 'dep-0');
    expect(quoteOfDeposit(state, 'dep-0')).toBeUndefined();
    linkOffRamp(state, 'dep-1');
    linkOffRamp(state, 'dep-2');
    expect(quoteOfDeposit(state, 'dep-1')).toEqual(shown);
    expect(quoteOfDeposit(state, 'dep-2')).toBeUndefined();
    expect(state.depositQuote).toBeUndefined();
    // Carried over continue-as-new.
    expect(carriedState(state).quotedDeposits).toEqual([{ depositTransactionId: 'dep-1', quote: shown }]);
  });

  test('the state keeps the last quoted deposits only', () => {
    const state = newEndUserState(input, T0);
    for (let i = 0; i < QUOTED_DEPOSITS_KEPT + 5; i += 1) {
      state.depositQuote = shown;
      linkOffRamp(state, `dep-${i}`);
    }
    expect(state.quotedDeposits).toHaveLength(QUOTED_DEPOSITS_KEPT);
    expect(quoteOfDeposit(state, 'dep-0')).toBeUndefined();
    expect(quoteOfDeposit(state, `dep-${QUOTED_DEPOSITS_KEPT + 4}`)).toEqual(shown);
  });
});
