/**
 * The off-ramp's rules as its workflow runs them (workflows/ramps/shared/rules.ts): its four modules of pure rules, one
 * concern each, together.
 */
import type { RampRules } from '../shared/rules';
import * as alerts from './alerts';
import * as booking from './booking';
import * as publishing from './publishing';
import * as state from './state';
import type { OffRampState, OffRampStatus } from './types';

export const offRampRules: RampRules<OffRampState, OffRampStatus> = {
  ...state,
  ...booking,
  ...alerts,
  ...publishing,
};
