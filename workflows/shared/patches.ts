/** The workflow side of the patch baseline (patch-baseline.ts): a patch check that records no marker when taken. */
import { patched, workflowInfo } from '@temporalio/workflow';
import { type BaselinePatch, type PatchBaseline, takenByBaseline } from './patch-baseline';

/** `patched(patchId)`, but without a marker for a run whose baseline takes the patch. */
export function hasPatch(run: PatchBaseline, patchId: BaselinePatch): boolean {
  if (!takenByBaseline(run, patchId)) return patched(patchId);
  // A marker an older worker recorded in this run is matched on replay; its answer changes nothing here.
  if (workflowInfo().unsafe.isReplaying) patched(patchId);
  return true;
}
