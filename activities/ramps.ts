import type { ActivityDeps } from './deps';
import { createOffRampActivities } from './ramps/offramp/activities';
import { createOnRampActivities } from './ramps/onramp/activities';
import { createRouterActivities } from './ramps/router/activities';

export type { EndUserOfWallet } from './ramps/offramp/activities';

/** The ramp processes' activities, under the names their histories schedule. */
export const createRampActivities = (deps: ActivityDeps) => ({
  ...createRouterActivities(deps),
  ...createOffRampActivities(deps),
  ...createOnRampActivities(deps),
});
