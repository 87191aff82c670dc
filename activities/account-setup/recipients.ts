import { Context } from '@temporalio/activity';
import { orderRecipientUrl, redactedRecipientUrl, transactionRecipientUrl } from '../../src/config/receiver';
import { MAX_PAGES } from '../../src/operator/client';
import { OperatorError } from '../../src/operator/errors';
import type { RecipientKind, WebhookRecipient } from '../../src/operator/schemas';
import type { ActivityDeps } from '../deps';
import { callOperator } from '../shared/operator-failure';

/**
 * Webhook recipients. Our recipient URLs carry the receiver's secret path segment, so they stay inside these
 * activities: what goes back to a workflow (and so into history) is the recipient ID and a redacted URL.
 */
export interface RecipientView {
  kind: RecipientKind;
  id: string;
  redactedUrl: string;
  /** The URL is exactly our receiver's URL for this kind (current configuration). */
  matchesReceiver: boolean;
  createdAt: string;
}

export function createRecipientActivities({ operator, logger, config }: ActivityDeps) {
  const receiverConfig = () => config.receiver();
  const ourUrl = (kind: RecipientKind) =>
    kind === 'transaction' ? transactionRecipientUrl(receiverConfig()) : orderRecipientUrl(receiverConfig());

  const view = (kind: RecipientKind, recipient: WebhookRecipient): RecipientView => ({
    kind,
    id: recipient.id,
    redactedUrl: redactedRecipientUrl(recipient.url),
    matchesReceiver: recipient.url === ourUrl(kind),
    createdAt: recipient.createdAt,
  });

  /** Every page, heartbeating between pages (a long list is the slow part of the setup). */
  async function listAll(kind: RecipientKind): Promise<WebhookRecipient[]> {
    const all: WebhookRecipient[] = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const { data, pagination } = await callOperator(() => operator.listRecipients(kind, { page }));
      all.push(...data);
      Context.current().heartbeat({ kind, page });
      if (data.length === 0 || page >= pagination.totalPage) return all;
    }
    throw new OperatorError(`recipient list of kind ${kind} has more than ${MAX_PAGES} pages`, {
      operation: 'listRecipients',
      code: 'too_many_pages',
      retryable: false,
    });
  }

  return {
    async listWebhookRecipients(input: { kind: RecipientKind }): Promise<RecipientView[]> {
      return (await listAll(input.kind)).map((recipient) => view(input.kind, recipient));
    },

    /**
     * Registers our receiver's URL for this kind unless it is already registered. Lists first on every attempt,
     * so a retry after a lost answer finds the recipient the first attempt created instead of adding a second.
     */
    async ensureWebhookRecipient(input: {
      kind: RecipientKind;
    }): Promise<{ recipient: RecipientView; created: boolean }> {
      const { kind } = input;
      const existing = (await listAll(kind)).find((recipient) => recipient.url === ourUrl(kind));
      if (existing) return { recipient: view(kind, existing), created: false };
      const created = await callOperator(() => operator.createRecipients(kind, [ourUrl(kind)]));
      const mine = created.find((recipient) => recipient.url === ourUrl(kind)) ?? created[0];
      if (!mine) {
        throw new OperatorError(`operator created no ${kind} recipient`, {
          operation: 'createRecipients',
          code: 'invalid_response',
          retryable: true,
        });
      }
      logger.info(
        { kind, recipientId: mine.id, url: redactedRecipientUrl(mine.url) },
        'Webhook recipient registered',
      );
      return { recipient: view(kind, mine), created: true };
    },

    async deleteWebhookRecipient(input: { kind: RecipientKind; id: string }): Promise<void> {
      await callOperator(() => operator.deleteRecipient(input.kind, input.id));
      logger.info({ kind: input.kind, recipientId: input.id }, 'Webhook recipient removed');
    },
  };
}
