import { defineSignal } from '@temporalio/workflow';

/**
 * Sent by a release to each long-lived run left on another worker version (src/temporal/worker-deployment.ts): hand
 * over to a run on the current version (workflows/shared/versioning.ts).
 */
export const moveToCurrentVersionSignal = defineSignal('moveToCurrentVersion');
