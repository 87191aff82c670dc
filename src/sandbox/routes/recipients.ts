/**
 * Webhook recipients of both kinds: create (201, data = created recipients; every URL must begin with
 * https:// or the whole request is refused with 400 and nothing is stored), list (paged), get, delete.
 */
import { createRecipientsRequest, type RecipientKind } from '../../operator/schemas';
import type { SandboxContext } from '../context';
import { notFound, parseOr400 } from '../errors';
import { paginate, param, sendData } from '../http/respond';
import type { RecipientRecord } from '../state';
import type { Handler } from './types';

const view = (record: RecipientRecord) => ({
  id: record.id,
  url: record.url,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

export function recipientHandlers(
  ctx: SandboxContext,
  kind: RecipientKind,
): { list: Handler; get: Handler; create: Handler; remove: Handler } {
  const store = () => ctx.state.recipients[kind];
  const label = kind === 'transaction' ? 'transaction webhook recipient' : 'order webhook recipient';
  const find = (id: string): RecipientRecord => {
    const record = store().get(id);
    if (!record) throw notFound(label, id);
    return record;
  };
  return {
    list(req, res) {
      const page = paginate(req, [...store().values()].map(view), ctx.config.profile.paging);
      sendData(res, 200, page.items, {
        currentPage: page.page,
        totalPage: page.totalPage,
        totalRecord: page.totalRecord,
        limit: page.limit,
      });
    },
    get(req, res) {
      sendData(res, 200, view(find(param(req, 'id'))));
    },
    create(req, res) {
      const body = parseOr400(createRecipientsRequest, req.body);
      const now = ctx.clock.iso();
      const created = body.urls.map((url): RecipientRecord => ({
        id: ctx.random.uuid(),
        kind,
        url,
        createdAt: now,
        updatedAt: now,
      }));
      for (const record of created) store().set(record.id, record);
      sendData(res, 201, created.map(view));
    },
    remove(req, res) {
      const record = find(param(req, 'id'));
      store().delete(record.id);
      sendData(res, 200, view(record));
    },
  };
}
