import { createAccountSetupActivities } from './account-setup/activities';
import type { ActivityDeps } from './deps';
import { createEndUserActivities } from './end-user/activities';
import { createAlertActivities } from './operations/alerts/activities';
import { createIncidentHandOverActivities } from './operations/alerts/hand-over';
import { createGasMonitorActivities } from './operations/gas-monitor/activities';
import { createReconcileActivities } from './operations/reconcile/activities';
import { createQuoteActivities } from './quote/activities';
import { createOffRampActivities } from './ramps/offramp/activities';
import { createOnRampActivities } from './ramps/onramp/activities';
import { createRouterActivities } from '../src/routing/activities';
import { snapshotReads } from './shared/snapshots';
import { createWalletAddressActivities } from './shared/wallets';
import { createLedgerActivities } from './ledger/activities';
import { createOutcomeActivities } from './outcomes/activities';

export type { ActivityDeps } from './deps';

/**
 * Every activity the worker registers, built from injected dependencies; the keys are the activity type names. The
 * routers' sits beside the hop it runs, in src/routing.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createEndUserActivities(deps),
    ...createWalletAddressActivities(deps),
    ...createAccountSetupActivities(deps),
    ...createQuoteActivities(deps),
    ...createRouterActivities({
      reads: snapshotReads(deps.operator),
      temporal: deps.temporal,
      logger: deps.logger,
      ledger: deps.ledger,
    }),
    ...createOffRampActivities(deps),
    ...createOnRampActivities(deps),
    ...createAlertActivities(deps),
    ...createIncidentHandOverActivities(deps),
    ...createGasMonitorActivities(deps),
    ...createReconcileActivities(deps),
    ...createLedgerActivities(deps),
    ...createOutcomeActivities(deps),
  };
}

export type RampActivities = ReturnType<typeof createActivities>;
