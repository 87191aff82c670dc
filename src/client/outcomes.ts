/**
 * Outcome events: a recorded event put back in its process's queue, to be sent again with its own `webhook-id` and
 * body (also for a closed process: the event lives in the ledger).
 */
import { parseOutcomeWebhookId } from '../domain/outcome-events';
import { readEventView, requeueEvent } from '../ledger/outcome-events';
import type { EventView } from '../ledger/views';
import type { ClientContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';

/** The webhook-id, checked: InvalidInputError for anything that is not the webhook-id of an outcome event. */
export function parseWebhookId(webhookId: string): string {
  if (typeof webhookId !== 'string' || !parseOutcomeWebhookId(webhookId))
    throw new InvalidInputError('Invalid webhook ID', [
      'expected the webhook-id of an outcome event (evt_<process>~<number>)',
    ]);
  return webhookId;
}

/** Queues the event to be delivered again now and answers it (pending); NotFoundError when there is no such event. */
export async function redeliverEvent(context: ClientContext, webhookId: string): Promise<EventView> {
  const id = parseWebhookId(webhookId);
  if (!(await requeueEvent(context.ledger, id))) throw new NotFoundError(`No outcome event ${id}`);
  const view = await readEventView(context.ledger, id);
  if (!view) throw new NotFoundError(`No outcome event ${id}`);
  return view;
}
