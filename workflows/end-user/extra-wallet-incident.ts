/**
 * Raising the extra-wallet incident from a wallet's owner (the end user, the account setup): the workflow side of
 * the journal rules in wallet-journal.ts. Histories recorded before the incident existed hold no alert, hence the
 * patch; a failed raise is logged and not retried here (the activity already retried it).
 */
import { log } from '@temporalio/workflow';
import { failureReason } from '../../src/domain/errors';
import type { AlertInput } from '../operations/alerts/types';
import { hasPatch } from '../shared/patches';
import type { PatchBaseline } from '../shared/patch-baseline';

export async function raiseExtraWalletIncident(
  raiseAlert: (alert: AlertInput) => Promise<unknown>,
  alert: () => AlertInput,
  context: {
    /** Names the wallet's owner in the log line of a failed raise. */
    logFields?: Record<string, string>;
    /** The owner's input: its patch baseline decides whether the incident's patch is checked. */
    run: PatchBaseline;
  },
): Promise<void> {
  const { logFields = {}, run } = context;
  if (!hasPatch(run, 'extra-wallet-incident')) return;
  try {
    await raiseAlert(alert());
  } catch (error) {
    log.error('Extra wallet incident could not be raised', { ...logFields, error: failureReason(error) });
  }
}

/**
 * Whether a walletCreationNotSent signal settles its request. A worker without the handler leaves the signal
 * unhandled, and its run may then have raised the request as an incident; on replay this answers no there, so the
 * replay takes the same branch.
 */
export function notSentHandled(run: PatchBaseline): boolean {
  return hasPatch(run, 'wallet-creation-not-sent');
}
