/**
 * Patches a run takes as given when it was started with them: no marker recorded.
 *
 * A patch marker lets a history recorded before the patch replay on its old branch. In every new run that passes a
 * `patched()` check the SDK records the marker and upserts the TemporalChangeVersion search attribute with it: two
 * more history events and one more visibility write on the server, for runs that have no old branch to replay. So
 * the starters write PATCH_BASELINE into the workflow input (which is in history from the first event), and a
 * patch at or below that baseline is taken without asking. Runs without it (started before the baseline, or by an
 * older starter) check `patched()` exactly as before, so their histories replay unchanged.
 *
 * A run an older worker executed after a newer starter began it (a rolling deploy) holds the markers in spite of
 * its baseline: on replay each patch is still checked, so those markers are matched; outside replay it is never
 * checked, so none is recorded.
 */

/**
 * The baseline that takes each patch. A new patch enters one level above PATCH_BASELINE (checked and marked like any
 * patch) and is taken by a later release's baseline, once no worker without it is left (docs/architecture.md).
 */
export const BASELINE_OF_PATCH = {
  'router-activities-restored': 1,
  'router-one-activity': 1,
  'router-unknown-resource': 1,
  'late-event-after-timeout': 1,
  'offramp-order-in-forward': 1,
  'offramp-attribute-in-one-activity': 1,
  'offramp-order-read-at-once': 1,
  'alerts-incident-store': 1,
  'link-end-user-by-activity': 1,
  'client-outcome-events': 1,
  'deposit-wallet-addresses-in-creation': 1,
  'extra-wallet-incident': 1,
  'router-hop-batches': 2,
  'wallet-creation-not-sent': 2,
} as const;

export type BaselinePatch = keyof typeof BASELINE_OF_PATCH;

/** The baseline the starters of this code write into the inputs of the processes they start. */
export const PATCH_BASELINE = 1;

/** The part of a process's input that names its patch baseline. */
export interface PatchBaseline {
  /** Patches up to this baseline are taken without a marker; absent (runs started before it): every one is checked. */
  patchBaseline?: number;
}

/** Whether the run's baseline already takes this patch (pure: decided by the input alone). */
export const takenByBaseline = (run: PatchBaseline, patchId: BaselinePatch): boolean =>
  (run.patchBaseline ?? 0) >= BASELINE_OF_PATCH[patchId];
