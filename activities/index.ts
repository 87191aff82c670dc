import type { ActivityDeps } from './deps';
import { createWalletActivities } from './wallets';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createWalletActivities(deps),
  };
}

export type RampActivities = ReturnType<typeof createActivities>;
