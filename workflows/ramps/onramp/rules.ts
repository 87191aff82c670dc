/**
 * The on-ramp's rules as its workflow runs them (workflows/ramps/shared/rules.ts): its four modules of pure rules, one
 * concern each, together.
 */
import type { RampRules } from '../shared/rules';
import * as alerts from './alerts';
import * as booking from './booking';
import * as publishing from './publishing';
import * as state from './state';
import type { OnRampState, OnRampStatus } from './types';

export const onRampRules: RampRules<OnRampState, OnRampStatus> = {
  ...state,
  ...booking,
  ...alerts,
  ...publishing,
};
