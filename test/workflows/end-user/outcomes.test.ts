import type { WorkflowTimings } from '../../../src/domain/timings';
import { carriedState, depositWalletCreated, newEndUserState } from '../../../workflows/end-user/state';
import { raiseOutcome } from '../../../workflows/outcomes/outbox';

const T0 = '2026-01-01T00:00:00.000Z';
const timings = { activityStartToCloseMs: 1000 } as WorkflowTimings;

describe('end-user outcome events', () => {
  test('deposit_wallet.created carries the wallet and its address on each network', () => {
    const state = newEndUserState({ endUserId: 'u-1', endUserSearchValue: 'u-1', timings }, T0);
    expect(depositWalletCreated(state, 'end-user/u-1')).toBeUndefined();
    state.wallet = {
      walletId: 'w-1',
      externalUserId: 'end-user:u-1',
      addresses: [
        { network: 'networks/ethereum-mainnet', address: '0xabc' },
        { network: 'networks/tron-mainnet', address: 'TXyz' },
      ],
      createdAt: T0,
    };
    expect(depositWalletCreated(state, 'end-user/u-1')).toEqual({
      type: 'deposit_wallet.created',
      data: {
        workflowId: 'end-user/u-1',
        endUserId: 'u-1',
        status: 'wallet-ready',
        step: 'Deposit wallet created',
        walletId: 'w-1',
        addresses: [
          { network: 'networks/ethereum-mainnet', address: '0xabc' },
          { network: 'networks/tron-mainnet', address: 'TXyz' },
        ],
      },
    });
  });

  test('the outbox is carried over continue-as-new, so numbering goes on and pending events are still sent', () => {
    const state = newEndUserState({ endUserId: 'u-1', endUserSearchValue: 'u-1', timings }, T0);
    const outbox = state.outcomes;
    raiseOutcome(
      outbox,
      'end-user/u-1',
      'deposit_wallet.created',
      { workflowId: 'end-user/u-1', endUserId: 'u-1', status: 'wallet-ready', step: 'x' },
      new Date(T0),
    );
    const next = newEndUserState(
      { endUserId: 'u-1', endUserSearchValue: 'u-1', timings, carried: carriedState(state) },
      T0,
    );
    expect(next.outcomes).toEqual(outbox);
    expect(next.outcomes.events[0]).toMatchObject({ webhookId: 'evt_end-user~u-1~1', delivery: 'pending' });
  });
});
