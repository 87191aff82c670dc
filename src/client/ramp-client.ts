/**
 * The typed client the client's backend imports. Temporal's client underneath; every message it sends is defined
 * once in workflows/messages.ts and shared with the workflows.
 */
import { Client, type Connection, WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import { endUserStateQuery, ensureDepositWalletUpdate } from '../../workflows/messages';
import { endUserWorkflow } from '../../workflows/end-user';
import type { DepositWallet, EndUserState, WorkflowTimings } from '../../workflows/types';
import { NotFoundError } from './errors';
import { endUserWorkflowId, parseEndUserId } from './ids';

export interface RampClientOptions {
  connection: Connection;
  namespace: string;
  taskQueue: string;
  timings: WorkflowTimings;
}

export class RampClient {
  readonly temporal: Client;
  readonly #taskQueue: string;
  readonly #timings: WorkflowTimings;

  constructor(options: RampClientOptions) {
    this.temporal = new Client({ connection: options.connection, namespace: options.namespace });
    this.#taskQueue = options.taskQueue;
    this.#timings = options.timings;
  }

  /**
   * Creates the end user's workflow if needed (update-with-start) and answers the deposit wallet's addresses once
   * they exist. Any number of concurrent calls for one user lead to one wallet.
   */
  async ensureDepositWallet(endUserId: string): Promise<DepositWallet> {
    const id = parseEndUserId(endUserId);
    const startWorkflowOperation = new WithStartWorkflowOperation(endUserWorkflow, {
      workflowId: endUserWorkflowId(id),
      taskQueue: this.#taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{ endUserId: id, timings: this.#timings }],
    });
    return this.temporal.workflow.executeUpdateWithStart(ensureDepositWalletUpdate, { startWorkflowOperation });
  }

  /** The end user's wallet and state, or NotFoundError for a user we never saw. */
  async getEndUser(endUserId: string): Promise<EndUserState> {
    const id = parseEndUserId(endUserId);
    try {
      return await this.temporal.workflow.getHandle(endUserWorkflowId(id)).query(endUserStateQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No end user ${id}`);
      throw error;
    }
  }

  /** The deposit wallet if it exists; undefined for a known user without one yet. */
  async getDepositWallet(endUserId: string): Promise<DepositWallet | undefined> {
    return (await this.getEndUser(endUserId)).wallet;
  }
}
