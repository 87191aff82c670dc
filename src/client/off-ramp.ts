/** offramp/<deposit>: an off-ramp, started by its deposit's first event and read from the ledger by its deposit. */
import { offRampWorkflowId } from '../domain/ids';
import { readRampView } from '../ledger/ramps';
import type { OffRampView } from '../ledger/views';
import { parseIdentifier } from '../validation/identifiers';
import type { ClientContext } from './context';
import { NotFoundError } from './errors';

export async function getOffRamp(context: ClientContext, depositTransactionId: string): Promise<OffRampView> {
  const id = parseIdentifier(depositTransactionId, 'deposit transaction ID');
  const view = await readRampView(context.ledger, offRampWorkflowId(id));
  if (!view) throw new NotFoundError(`No off-ramp for deposit ${id}`);
  return view as OffRampView;
}
