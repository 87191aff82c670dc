/**
 * What every call of the typed client needs: the Temporal client and the ledger, where and how processes start, the two
 * configurable process IDs, the clock for quote checks and the keys of the end user pseudonym. RampClient builds
 * one; the per-process modules beside this file take it as their first argument.
 */
import type { Client } from '@temporalio/client';
import type { Ledger } from '../database/connection';
import type { PayloadEncryptionConfig } from '../config/encryption';
import type { ProcessIds } from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import { endUserSearchValue } from '../temporal/end-user-pseudonym';

export interface ClientContext {
  readonly temporal: Client;
  /** The product's database: every read of a ramp, end user, event or statement comes from it. */
  readonly ledger: Ledger;
  readonly taskQueue: string;
  readonly timings: WorkflowTimings;
  readonly processIds: Readonly<ProcessIds>;
  /** Epoch milliseconds. */
  readonly now: () => number;
  readonly encryption: Pick<PayloadEncryptionConfig, 'keys'> | undefined;
}

/** `{ endUserSearchValue }`: the end user's pseudonym when encryption keys are configured, else the ID itself. */
export function searchValueField(context: ClientContext, endUserId: string): { endUserSearchValue: string } {
  return { endUserSearchValue: endUserSearchValue(endUserId, context.encryption) };
}
