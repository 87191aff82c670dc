import type { ActivityDeps } from './deps';
import { createWalletActivities } from './wallets';
import { createAlertActivities } from './alerts';
import { createRampActivities } from './ramps';
import { createAccountActivities } from './account';
import { createQuoteActivities } from './quotes';
import { createRecipientActivities } from './recipients';
import { createResourceActivities } from './resources';
import { createSessionActivities } from './session';
import { createOpsActivities } from './ops';
import { createGasMonitorActivities } from './operations/gas-monitor/activities';
import { createWalletAddressActivities } from './shared/wallets';
import { createOutcomeActivities } from './outcomes/activities';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createWalletActivities(deps),
    ...createWalletAddressActivities(deps),
    ...createRampActivities(deps),
    ...createAlertActivities(deps),
    ...createSessionActivities(deps),
    ...createAccountActivities(deps),
    ...createQuoteActivities(deps),
    ...createRecipientActivities(deps),
    ...createResourceActivities(deps),
    ...createOpsActivities(deps),
    ...createGasMonitorActivities(deps),
    ...createOutcomeActivities(deps),
  };
}

export type RampActivities = ReturnType<typeof createActivities>;
