import * as messages from '../../../workflows/messages';

// Recorded histories and running workflows carry these names: renaming one breaks them.
describe('message names', () => {
  test('every signal, update and query keeps its name', () => {
    const names = Object.fromEntries(
      Object.entries(messages).map(([constant, message]) => [constant, message.name]),
    );
    expect(names).toEqual({
      ensureDepositWalletUpdate: 'ensureDepositWallet',
      walletCreationRequestedSignal: 'walletCreationRequested',
      walletCreatedSignal: 'walletCreated',
      depositWalletJournalUpdate: 'depositWalletJournal',
      endUserStateQuery: 'endUserState',
      offRampLinkedSignal: 'offRampLinked',
      accountWalletJournalUpdate: 'accountWalletJournal',
      setupAccountUpdate: 'setupAccount',
      accountStateQuery: 'accountState',
      webhookEventSignal: 'webhookEvent',
      routerStateQuery: 'routerState',
      offRampTransactionSignal: 'offRampTransaction',
      offRampStateQuery: 'offRampState',
      onRampOrderSignal: 'onRampOrder',
      onRampTransactionSignal: 'onRampTransaction',
      onRampAttributionSignal: 'onRampAttribution',
      onRampStateQuery: 'onRampState',
      unknownEventSignal: 'unknownEvent',
      unknownEventsQuery: 'unknownEvents',
      raiseAlertUpdate: 'raiseAlert',
      resolveAlertUpdate: 'resolveAlert',
      alertsStateQuery: 'alertsState',
    });
  });
});
