/** The shapes of a bulk redelivery (events/redeliveries/<job ID>). Workflow-safe. */
import type { WorkflowTimings } from '../../../src/domain/timings';

/** What a job redelivers, as the caller asked for it (shown in its progress). */
export interface RedeliveryFilter {
  type?: string;
  status?: string;
  endUserId?: string;
  since: string;
  until?: string;
}

export interface RedeliveryJobProgress {
  jobId: string;
  status: 'running' | 'completed';
  filter: RedeliveryFilter;
  /** Events found so far that match the filter; each is sent once more with its own webhook-id. */
  matched: number;
  delivered: number;
  failed: number;
  noEndpoint: number;
  startedAt: string;
  completedAt?: string;
}

export interface RedeliveryJobInput {
  filter: RedeliveryFilter;
  /** The visibility query of the event records the filter matches (built and checked by the typed client). */
  query: string;
  timings: WorkflowTimings;
  startedAt: string;
  /** Carried over continue-as-new. */
  carried?: { progress: RedeliveryJobProgress; pageToken: string };
}
