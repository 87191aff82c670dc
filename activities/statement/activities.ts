/** The settlement statement's operator reads: a page's orders and transactions, a few at a time. */
import { failureReason } from '../../src/domain/errors';
import type { ResourceRead, ResourceRef } from '../../workflows/statement/types';
import type { ActivityDeps } from '../deps';
import { readOrder, readTransaction } from '../shared/snapshots';

/** Reads in flight at once: a page is read in well under a second without crowding the operator. */
export const STATEMENT_READ_CONCURRENCY = 8;

export function createStatementActivities({ operator }: ActivityDeps) {
  async function read(resource: ResourceRef): Promise<ResourceRead> {
    try {
      return resource.kind === 'order'
        ? { kind: 'order', id: resource.id, order: await readOrder(operator, resource.id) }
        : { kind: 'transaction', id: resource.id, transaction: await readTransaction(operator, resource.id) };
    } catch (error) {
      return { ...resource, error: failureReason(error) };
    }
  }

  return {
    /** Every resource read afresh; a read that fails is answered with its reason, never thrown. */
    async readOperatorResources(resources: ResourceRef[]): Promise<ResourceRead[]> {
      const reads: ResourceRead[] = new Array<ResourceRead>(resources.length);
      let next = 0;
      const reader = async () => {
        while (next < resources.length) {
          const index = next++;
          reads[index] = await read(resources[index]!);
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(STATEMENT_READ_CONCURRENCY, resources.length) }, reader),
      );
      return reads;
    },
  };
}
