/** The off-ramp's rules as its workflow runs them (workflows/ramps/shared/rules.ts), gathered from its pure modules. */
import type { RampRules } from '../shared/rules';
import { exceptionAlert, exceptionResolution } from './alerts';
import { newExceptions, refreshBooking, settlementOf } from './booking';
import { currentDetails, exceptionOutcome, offRampOutcomes, searchAttributes, stepText } from './publishing';
import { evaluate, isTerminal } from './state';
import type { OffRampState, OffRampStatus } from './types';

export const offRampRules: RampRules<OffRampState, OffRampStatus> = {
  evaluate,
  isTerminal,
  settlementOf,
  refreshBooking,
  newExceptions,
  stepText,
  currentDetails,
  searchAttributes,
  outcomes: offRampOutcomes,
  exceptionOutcome,
  exceptionAlert,
  exceptionResolution,
};
