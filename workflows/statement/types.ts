/** statement-read/<uuid>: the operator resources one page of a settlement statement re-reads, and their answers. */
import type { WorkflowTimings } from '../../src/domain/timings';
import type { OrderSnapshot, TransactionSnapshot } from '../ramps/shared/snapshots';

/** An operator resource a ramp booked: its order or one of its transactions. */
export interface ResourceRef {
  kind: 'order' | 'transaction';
  id: string;
}

/** One fresh read: the snapshot, or why it could not be read (never a credential). */
export type ResourceRead =
  | (ResourceRef & { kind: 'order'; order: OrderSnapshot })
  | (ResourceRef & { kind: 'transaction'; transaction: TransactionSnapshot })
  | (ResourceRef & { error: string });

export interface StatementReadInput {
  resources: ResourceRef[];
  timings: WorkflowTimings;
}
