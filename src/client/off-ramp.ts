/** offramp/<deposit>: an off-ramp, started by its deposit's first event and read by its deposit transaction ID. */
import { WorkflowNotFoundError } from '@temporalio/client';
import { offRampWorkflowId } from '../domain/ids';
import { parseIdentifier } from '../validation/identifiers';
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import type { OffRampState } from '../../workflows/ramps/offramp/types';
import type { ClientContext } from './context';
import { NotFoundError } from './errors';

export async function getOffRamp(
  context: ClientContext,
  depositTransactionId: string,
): Promise<OffRampState> {
  const id = parseIdentifier(depositTransactionId, 'deposit transaction ID');
  try {
    return await context.temporal.workflow.getHandle(offRampWorkflowId(id)).query(offRampStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No off-ramp for deposit ${id}`);
    throw error;
  }
}
