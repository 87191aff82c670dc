import pino from 'pino';
import { type ActivityDeps, createActivities } from '../../activities';
import { testActivityConfig } from '../helpers/activities';

// The keys of createActivities are the activity type names workflows schedule: recorded histories and running
// workflows carry them, so a rename must fail here rather than in a replay or in production.
describe('activity names', () => {
  test('the worker registers exactly these activities', () => {
    const deps = {
      operator: {},
      temporal: {},
      logger: pino({ level: 'silent' }),
      config: testActivityConfig(),
    } as unknown as ActivityDeps;
    expect(Object.keys(createActivities(deps)).sort()).toEqual([
      'assessGasWallet',
      'attributeOffRamp',
      'beginReconcile',
      'checkGasWallet',
      'createAccountWallet',
      'createDepositWallet',
      'createQuote',
      'deleteWebhookRecipient',
      'deliverOutcomeEvent',
      'ensureWebhookRecipient',
      'finishReconcile',
      'forwardAcknowledgeIncident',
      'forwardRaiseAlert',
      'forwardResolveAlert',
      'forwardResolveIncident',
      'getWalletAddresses',
      'listWebhookRecipients',
      'pollOffRamp',
      'pollOnRamp',
      'raiseAlert',
      'readOrderSnapshot',
      'reconcileBookingsPage',
      'reconcileDepositWallets',
      'reconcileLedger',
      'reconcileOpenProcesses',
      'reconcileRampsPage',
      'reconcileUnrecordedRamps',
      'reconcileWalletsPage',
      'recordEndUser',
      'recordRamp',
      'resolveAlert',
      'routeEvents',
      'takeOverIncidents',
    ]);
  });
});
