import {
  accountWallet,
  carriedState,
  ensuredRecipient,
  extraAccountWallets,
  newAccountSetupState,
  nextSteps,
  publishedValues,
  roleJournal,
  roleOfJournal,
  setupResult,
  staleRecipients,
  unconfirmedCreationCount,
  withRecipient,
} from '../../../workflows/account-setup/state';
import type { AccountRecipient, AccountSetupCarriedState } from '../../../workflows/account-setup/types';
import { journalAnswer, journalRequest, newWalletJournal } from '../../../workflows/wallet-creation/journal';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';

const master = accountWallet(
  'master',
  { walletId: 'w-m', externalUserId: 'ramp-orchestrator/master' },
  [
    { network: 'networks/ethereum-mainnet', address: '0xm' },
    { network: 'networks/tron-mainnet', address: 'Tm' },
  ],
  T0,
);
const gas = accountWallet(
  'gas',
  { walletId: 'w-g', externalUserId: 'ramp-orchestrator/gas' },
  [{ network: 'networks/ethereum-mainnet', address: '0xg' }],
  T0,
);
const recipient = (kind: 'transaction' | 'order', id: string, createdByUs: boolean): AccountRecipient => ({
  kind,
  id,
  redactedUrl: `https://receiver.example/***/${kind}s`,
  createdByUs,
  recordedAt: T0,
});

describe('account setup state', () => {
  test('a first run starts with nothing; a continued one takes over what it carried', () => {
    const fresh = newAccountSetupState(undefined, T0);
    const journals = { master: newWalletJournal(), gas: newWalletJournal() };
    expect(fresh).toEqual({
      status: 'none',
      wallets: {},
      journals,
      recipients: [],
      orphanWallets: [],
      extraWalletsReported: 0,
      setupRuns: 0,
      createdAt: T0,
    });
    expect(carriedState(fresh)).toEqual({
      wallets: {},
      journals,
      recipients: [],
      orphanWallets: [],
      extraWalletsReported: 0,
      setupRuns: 0,
      createdAt: T0,
    });

    const state = newAccountSetupState(undefined, T0);
    state.recipients = [recipient('transaction', 'r-t', true), recipient('order', 'r-o', true)];
    state.setupRuns = 1;
    state.result = setupResult(state, master, gas, { added: [], removed: [] }, T0);
    const carried: AccountSetupCarriedState = {
      ...carriedState(state),
      wallets: { master, gas },
      extraWalletsReported: 2,
    };
    const continued = newAccountSetupState(carried, T1);
    expect(continued.status).toBe('ready');
    expect(continued.createdAt).toBe(T0);
    expect(carriedState(continued)).toEqual(carried);
  });

  test('journal signals count only for the two account wallet roles', () => {
    const state = newAccountSetupState(undefined, T0);
    expect(roleJournal(state, 'master')).toBe(state.journals.master);
    expect(roleJournal(state, 'gas')).toBe(state.journals.gas);
    expect(roleJournal(state, undefined)).toBeUndefined();
    expect(roleJournal(state, 'deposit')).toBeUndefined();
    expect(roleOfJournal(state, state.journals.gas)).toBe('gas');
    expect(roleOfJournal(state, newWalletJournal())).toBeUndefined();
  });

  test('each role keeps its own journal; unconfirmed creations of every role count as extra wallets', () => {
    const state = newAccountSetupState(undefined, T0);
    journalRequest(state.journals.master, { requestId: 'r/a#1', attempt: 1, inFlightForMs: 1 }, false, T0);
    journalRequest(state.journals.gas, { requestId: 'r/b#1', attempt: 1, inFlightForMs: 1 }, true, T0);
    expect(state.journals.master.unconfirmed).toEqual([{ attempt: 1, requestId: 'r/a#1', recordedAt: T0 }]);
    expect(state.journals.gas.unconfirmed).toEqual([]);
    expect(unconfirmedCreationCount(state)).toBe(1);
    state.orphanWallets.push({ role: 'gas', walletId: 'w-x', reason: 'r', recordedAt: T0 });
    expect(extraAccountWallets(state)).toBe(2);

    journalAnswer(
      state.journals.master,
      { walletId: 'w-m', externalUserId: 'x', attempt: 1, requestId: 'r/a#1', role: 'master' },
      false,
      T1,
    );
    expect(state.journals.master.journaled?.walletId).toBe('w-m');
    expect(state.journals.gas.journaled).toBeUndefined();
    expect(unconfirmedCreationCount(state)).toBe(0);
  });

  test('an ensured recipient is ours if created now or recorded as ours, and keeps its first record time', () => {
    const known = [recipient('transaction', 'r-1', true)];
    const answer = { recipient: { id: 'r-1', redactedUrl: 'u' }, created: false };
    expect(ensuredRecipient(known, 'transaction', answer, T1)).toEqual({
      kind: 'transaction',
      id: 'r-1',
      redactedUrl: 'u',
      createdByUs: true,
      recordedAt: T0,
    });
    // The same ID under the other kind is another recipient.
    expect(ensuredRecipient(known, 'order', answer, T1)).toMatchObject({
      createdByUs: false,
      recordedAt: T1,
    });
    expect(
      ensuredRecipient([], 'order', { recipient: { id: 'r-2', redactedUrl: 'u' }, created: true }, T1),
    ).toMatchObject({ createdByUs: true, recordedAt: T1 });
  });

  test('stale recipients: ours, of the kind, other than the current one', () => {
    const recipients = [
      recipient('transaction', 'r-old', true),
      recipient('transaction', 'r-foreign', false),
      recipient('transaction', 'r-now', true),
      recipient('order', 'r-order', true),
    ];
    expect(staleRecipients(recipients, 'transaction', 'r-now').map((entry) => entry.id)).toEqual(['r-old']);
    expect(staleRecipients(recipients, 'order', 'r-order')).toEqual([]);
  });

  test('the current recipient replaces every recorded one of its kind and goes last', () => {
    const recipients = [recipient('transaction', 'r-1', true), recipient('order', 'r-2', true)];
    expect(withRecipient(recipients, recipient('transaction', 'r-3', true)).map((entry) => entry.id)).toEqual(
      ['r-2', 'r-3'],
    );
  });

  test('the result lists both wallets for whitelisting, the recipients and the next steps', () => {
    const state = newAccountSetupState(undefined, T0);
    state.recipients = [recipient('transaction', 'r-t', true), recipient('order', 'r-o', false)];
    state.setupRuns = 2;
    const added = [recipient('transaction', 'r-t', true)];
    const result = setupResult(state, master, gas, { added, removed: [] }, T1);
    expect(result).toMatchObject({
      status: 'ready',
      masterWallet: master,
      gasWallet: gas,
      recipients: { transaction: state.recipients[0], order: state.recipients[1] },
      addedRecipients: added,
      removedRecipients: [],
      setupRuns: 2,
      completedAt: T1,
    });
    expect(result.whitelist).toEqual([
      { role: 'master', network: 'networks/ethereum-mainnet', address: '0xm' },
      { role: 'master', network: 'networks/tron-mainnet', address: 'Tm' },
      { role: 'gas', network: 'networks/ethereum-mainnet', address: '0xg' },
    ]);
    expect(result.nextSteps).toEqual(nextSteps(master, gas));
    expect(result.nextSteps[0]).toBe(
      'Whitelisting: hand the master wallet addresses (networks/ethereum-mainnet 0xm, networks/tron-mainnet Tm) ' +
        'and the gas wallet addresses (networks/ethereum-mainnet 0xg) to the account contact at the operator.',
    );
    expect(result.nextSteps).toHaveLength(4);
  });

  test('published values: status, the networks once each, and a memo without recipient timestamps', () => {
    const state = newAccountSetupState(undefined, T0);
    const attributes = (values: ReturnType<typeof publishedValues>) =>
      values.searchAttributes.map(({ key, value }) => [key.name, value]);
    expect(attributes(publishedValues(state))).toEqual([['RampStatus', 'account-pending']]);
    state.status = 'failed';
    state.lastError = 'boom';
    expect(publishedValues(state).memo).toEqual({
      accountSetup: {
        status: 'failed',
        whitelist: [],
        recipients: [],
        orphanWallets: [],
        setupRuns: 0,
        completedAt: null,
        lastError: 'boom',
      },
    });
    state.wallets = { master, gas };
    state.recipients = [recipient('transaction', 'r-t', true)];
    state.status = 'ready';
    delete state.lastError;
    expect(attributes(publishedValues(state))).toEqual([
      ['RampStatus', 'account-ready'],
      ['RampNetworks', ['networks/ethereum-mainnet', 'networks/tron-mainnet']],
    ]);
    expect(publishedValues(state).memo).toMatchObject({
      accountSetup: {
        recipients: [
          {
            kind: 'transaction',
            id: 'r-t',
            redactedUrl: state.recipients[0]!.redactedUrl,
            createdByUs: true,
          },
        ],
        lastError: null,
      },
    });
  });
});
