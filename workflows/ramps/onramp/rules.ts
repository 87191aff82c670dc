/** The on-ramp's rules as its workflow runs them (workflows/ramps/shared/rules.ts), gathered from its pure modules. */
import type { RampRules } from '../shared/rules';
import { exceptionAlert, exceptionResolution } from './alerts';
import { newExceptions, refreshBooking, settlementOf } from './booking';
import { currentDetails, exceptionOutcome, onRampOutcomes, searchAttributes, stepText } from './publishing';
import { evaluate, isTerminal } from './state';
import type { OnRampState, OnRampStatus } from './types';

export const onRampRules: RampRules<OnRampState, OnRampStatus> = {
  evaluate,
  isTerminal,
  settlementOf,
  refreshBooking,
  newExceptions,
  stepText,
  currentDetails,
  searchAttributes,
  outcomes: onRampOutcomes,
  exceptionOutcome,
  exceptionAlert,
  exceptionResolution,
};
