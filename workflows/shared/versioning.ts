/**
 * How each workflow type meets a release (docs/architecture.md, "Releases: a version beside the old"). Every type is
 * pinned: a run ends on the worker version it started on, so no worker ever replays a history another build recorded.
 * The long-lived types (LONG_LIVED_WORKFLOW_TYPES in src/domain/ids.ts) also move: a run hands over at
 * continue-as-new, and the next run starts on the version current then. A run learns that a newer version is current
 * from the server at any workflow task, or from the release itself (moveToCurrentVersionSignal), which reaches the
 * idle ones that would otherwise keep an old version running for good.
 */
import {
  makeContinueAsNewFunc,
  setHandler,
  setWorkflowOptions,
  type Workflow,
  workflowInfo,
} from '@temporalio/workflow';
import { moveToCurrentVersionSignal } from './messages';

export type ReleaseBehaviour = 'pinned' | 'pinned, moves at continue-as-new';

/** What a workflow function declared (read by the test that holds the declarations to LONG_LIVED_WORKFLOW_TYPES). */
export interface DeclaredWorkflow {
  releaseBehaviour?: ReleaseBehaviour;
}

/**
 * Declares a workflow type's behaviour, beside the workflow. Temporal refuses a versioning behaviour from a worker that
 * is not versioned (the tests' workers), so the declaration is made to versioned workers only: those poll as a
 * deployment, where an unversioned worker's deployment name is empty.
 */
export function declareReleaseBehaviour(workflow: Workflow, behaviour: ReleaseBehaviour): void {
  setWorkflowOptions(
    () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: 'PINNED' } : {}),
    workflow,
  );
  (workflow as DeclaredWorkflow).releaseBehaviour = behaviour;
}

/**
 * For a long-lived run: answers true once a newer version is current, as the server tells the run at a workflow task
 * or a release's signal did. Reads workflowInfo() on every call, so it belongs inside a condition() predicate.
 */
export function watchReleases(): () => boolean {
  let told = false;
  setHandler(moveToCurrentVersionSignal, () => {
    told = true;
  });
  return () => told || workflowInfo().targetWorkerDeploymentVersionChanged;
}

/**
 * Continue-as-new for a long-lived run: the next run starts on the version current now, then stays pinned there (on
 * an unchanged release, the same version).
 */
export function continueOnCurrentVersion<F extends Workflow>(): (...args: Parameters<F>) => Promise<never> {
  return makeContinueAsNewFunc<F>({ initialVersioningBehavior: 'AUTO_UPGRADE' });
}
