import * as accountSetup from '../../workflows/account-setup/messages';
import * as endUser from '../../workflows/end-user/messages';
import * as alerts from '../../workflows/operations/alerts/messages';
import * as offRamp from '../../workflows/ramps/offramp/messages';
import * as onRamp from '../../workflows/ramps/onramp/messages';
import * as router from '../../workflows/ramps/router/messages';
import * as unknownEvents from '../../workflows/ramps/unknown-events/messages';
import * as walletCreation from '../../workflows/wallet-creation/messages';

const messages = {
  ...endUser,
  ...walletCreation,
  ...accountSetup,
  ...router,
  ...offRamp,
  ...onRamp,
  ...unknownEvents,
  ...alerts,
};

// Recorded histories and running workflows carry these names: renaming one breaks them.
describe('message names', () => {
  test('every signal, update and query keeps its name', () => {
    const names = Object.fromEntries(
      Object.entries(messages).map(([constant, message]) => [constant, message.name]),
    );
    expect(names).toEqual({
      ensureDepositWalletUpdate: 'ensureDepositWallet',
      endUserStateQuery: 'endUserState',
      offRampLinkedSignal: 'offRampLinked',
      linkOffRampUpdate: 'linkOffRamp',
      depositQuoteShownSignal: 'depositQuoteShown',
      walletCreationRequestedSignal: 'walletCreationRequested',
      walletCreatedSignal: 'walletCreated',
      walletCreationNotSentSignal: 'walletCreationNotSent',
      setupAccountUpdate: 'setupAccount',
      accountStateQuery: 'accountState',
      webhookDeliveriesSignal: 'webhookDeliveries',
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
      acknowledgeIncidentUpdate: 'acknowledgeIncident',
      resolveIncidentUpdate: 'resolveIncident',
    });
  });
});
