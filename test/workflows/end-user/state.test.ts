import type { WorkflowTimings } from '../../../src/domain/timings';
import {
  carriedState,
  continuedInput,
  depositWallet,
  depositWalletJournal,
  linkOffRamp,
  newEndUserState,
  searchAttributes,
} from '../../../workflows/end-user/state';
import type { EndUserInput } from '../../../workflows/end-user/types';
import { journalAnswer, journalRequest } from '../../../workflows/end-user/wallet-journal';
import { PATCH_BASELINE } from '../../../workflows/shared/patch-baseline';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const timings = { activityStartToCloseMs: 1000 } as WorkflowTimings;
const wallet = {
  walletId: 'w-1',
  externalUserId: 'end-user:u-1',
  addresses: [{ network: 'networks/ethereum-mainnet', address: '0xabc' }],
  createdAt: T0,
};

describe('end-user state', () => {
  test('a first run starts empty, waiting for a wallet', () => {
    expect(newEndUserState({ endUserId: 'u-1', timings }, T0)).toEqual({
      endUserId: 'u-1',
      wallet: undefined,
      orphanWallets: [],
      createdAt: T0,
      runs: 1,
      walletStatus: 'none',
      offRamps: [],
    });
  });

  test('a continued run takes over the carried state and counts itself', () => {
    const carried = {
      wallet,
      orphanWallets: [{ walletId: 'w-0', reason: 'r', recordedAt: T0 }],
      createdAt: T0,
      runs: 2,
      offRamps: ['d-1'],
      creationRequests: [{ requestId: 'r/1#1', attempt: 1, requestedAt: T0, answeredWalletId: 'w-1' }],
      extraWalletsReported: 1,
    };
    const state = newEndUserState({ endUserId: 'u-1', timings, carried }, T1);
    expect(state).toMatchObject({ ...carried, runs: 3, walletStatus: 'ready', createdAt: T0 });
    expect(state).not.toHaveProperty('unconfirmedCreations');
    // What it carries on is what it took over (with its own run count).
    expect(carriedState(state)).toEqual({ ...carried, runs: 3 });
  });

  test('the next run keeps the settings given, leaves out the ones that were absent, and starts on the patch baseline', () => {
    const state = newEndUserState({ endUserId: 'u-1', timings }, T0);
    // A run started before the baseline hands over to one that has it: the next run is recorded by this code.
    expect(continuedInput({ endUserId: 'u-1', timings }, state)).toEqual({
      endUserId: 'u-1',
      timings,
      patchBaseline: PATCH_BASELINE,
      carried: { wallet: undefined, orphanWallets: [], createdAt: T0, runs: 1, offRamps: [] },
    });
    const input: EndUserInput = {
      endUserId: 'u-1',
      endUserSearchValue: 'p-1',
      timings,
      continueAsNewAfterEvents: 50,
    };
    expect(Object.keys(continuedInput(input, state))).toEqual([
      'endUserId',
      'endUserSearchValue',
      'timings',
      'patchBaseline',
      'continueAsNewAfterEvents',
      'carried',
    ]);
  });

  test('each off-ramp is listed once', () => {
    const state = newEndUserState({ endUserId: 'u-1', timings }, T0);
    linkOffRamp(state, 'd-1');
    linkOffRamp(state, 'd-2');
    linkOffRamp(state, 'd-1');
    expect(state.offRamps).toEqual(['d-1', 'd-2']);
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
    const state = newEndUserState({ endUserId: 'u-1', timings }, T0);
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

  test("the journal rules write into the end user's own fields", () => {
    const state = newEndUserState({ endUserId: 'u-1', timings }, T0);
    const journal = depositWalletJournal(state);
    journalRequest(journal, { requestId: 'r/1#1', attempt: 1 }, false, T0);
    expect(state.creationRequests).toEqual([{ requestId: 'r/1#1', attempt: 1, requestedAt: T0 }]);
    expect(state.unconfirmedCreations).toEqual([{ attempt: 1, requestId: 'r/1#1', recordedAt: T0 }]);
    journalAnswer(
      journal,
      { walletId: 'w-1', externalUserId: 'x', attempt: 1, requestId: 'r/1#1' },
      false,
      T1,
    );
    expect(state.journaledWallet?.walletId).toBe('w-1');
    expect(state.unconfirmedCreations).toEqual([]);
  });
});
