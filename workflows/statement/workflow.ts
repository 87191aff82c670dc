/**
 * statement-read/<uuid>: one page of a settlement statement re-read from the operator, so that each row says whether
 * the operator still agrees with what the ramp booked. A short workflow around one activity, like a quote: operator
 * I/O stays on the worker (the API and the typed client hold no operator credentials). Each read fails on its own
 * and says why in its answer; the workflow ends with the reads as its result.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { RampActivities } from '../../activities';
import { operatorActivityOptions } from '../shared/activity-options';
import type { ResourceRead, StatementReadInput } from './types';
import { declareReleaseBehaviour } from '../shared/versioning';

export async function statementReadWorkflow(input: StatementReadInput): Promise<ResourceRead[]> {
  const { readOperatorResources } = proxyActivities<RampActivities>(operatorActivityOptions(input.timings));
  return readOperatorResources(input.resources);
}

declareReleaseBehaviour(statementReadWorkflow, 'pinned');
