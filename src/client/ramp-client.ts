/**
 * The typed client the client's backend imports. Temporal's client underneath; every message it sends is defined
 * once in workflows/messages.ts and shared with the workflows.
 *
 * Extending it: add new methods at the end of the class (other processes append their own section).
 */
import { randomUUID } from 'node:crypto';
import {
  Client,
  type Connection,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import type { Env } from '../config/env';
import { connectClient } from '../temporal/connection';
import type { DataConverter } from '@temporalio/common';
import { loadEncryptionConfig, type PayloadEncryptionConfig } from '../config/encryption';
import { dataConverterFromConfig } from '../temporal/data-converter';
import { endUserSearchValue, endUserSearchValues, isEndUserPseudonym } from '../temporal/end-user-pseudonym';
import { accountSetupWorkflow } from '../../workflows/account-setup';
import {
  accountStateQuery,
  endUserStateQuery,
  ensureDepositWalletUpdate,
  setupAccountUpdate,
} from '../../workflows/messages';
import { endUserWorkflow } from '../../workflows/end-user';
import { quoteWorkflow } from '../../workflows/quote';
import type {
  AccountSetupResult,
  AccountSetupState,
  DepositWallet,
  EndUserState,
  QuoteRequestInput,
  QuoteResult,
  WorkflowTimings,
} from '../../workflows/types';
import { ConflictError, NotFoundError, ProcessEndedError, QuoteExpiredError } from './errors';
import { describeProcess, ONE_RUN_PER_PROCESS, signalWithStartProcess } from '../temporal/process-start';
import { ACCOUNT_SETUP_WORKFLOW_ID, endUserWorkflowId } from './ids';
import { parseEndUserId, parseIdentifier, parseOrderReference } from '../validation/identifiers';
import { parseQuoteRequest } from './quote-input';
// ---- ramps (issue 5)
import type { onRampWorkflow } from '../../workflows/onramp';
import { offRampStateQuery, onRampAttributionSignal, onRampStateQuery } from '../../workflows/messages';
import {
  offRampWorkflowId,
  type OffRampState,
  type OnRampAttribution,
  type OnRampQuoteShown,
  onRampWorkflowId,
  type OnRampState,
} from '../../workflows/ramp-types';
import {
  DepositTransactionId,
  EndUserId,
  OrderReference,
  RampDirection,
  RampStatus,
} from '../temporal/search-attributes';
import { InvalidInputError } from './errors';

export interface RampClientOptions {
  connection: Connection;
  namespace: string;
  taskQueue: string;
  timings: WorkflowTimings;
  /** Defaults to ACCOUNT_SETUP_WORKFLOW_ID; tests sharing one server pass their own. */
  accountSetupWorkflowId?: string;
  /** Clock in epoch milliseconds, for quote validity checks. */
  now?: () => number;
  /** Close the connection in close() (set by connect()). */
  ownsConnection?: boolean;
  /** Payload encryption (dataConverterFromConfig); connect() reads PAYLOAD_ENCRYPTION_KEYS itself. */
  dataConverter?: DataConverter;
  /**
   * The encryption keys (loadEncryptionConfig()), for the end user pseudonym in RampEndUserId
   * (src/temporal/end-user-pseudonym.ts). Pass the same keys as the data converter's; connect() does.
   */
  encryption?: Pick<PayloadEncryptionConfig, 'keys'>;
}

export interface RampClientConnectOptions {
  /** Environment to read TEMPORAL_* and RAMP_* settings from; process.env by default. */
  env?: Env;
  /** Overrides TEMPORAL_ADDRESS; without either, the local dev server address (TEMPORAL_DEV_IP:TEMPORAL_DEV_PORT). */
  address?: string;
  timings?: WorkflowTimings;
  accountSetupWorkflowId?: string;
}

export interface QuoteOptions {
  /** The quote must stay valid at least this long after it is returned (default 0: not yet expired). */
  minValidityMs?: number;
  /** How many times a quote that came back (nearly) expired is requested again before giving up (default 2). */
  maxRequotes?: number;
}

export class RampClient {
  readonly temporal: Client;
  readonly #connection: Connection;
  readonly #taskQueue: string;
  readonly #timings: WorkflowTimings;
  readonly #accountSetupWorkflowId: string;
  readonly #now: () => number;
  readonly #ownsConnection: boolean;
  readonly #encryption: Pick<PayloadEncryptionConfig, 'keys'> | undefined;

  constructor(options: RampClientOptions) {
    this.temporal = new Client({
      connection: options.connection,
      namespace: options.namespace,
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    });
    this.#connection = options.connection;
    this.#taskQueue = options.taskQueue;
    this.#timings = options.timings;
    this.#accountSetupWorkflowId = options.accountSetupWorkflowId ?? ACCOUNT_SETUP_WORKFLOW_ID;
    this.#now = options.now ?? Date.now;
    this.#ownsConnection = options.ownsConnection ?? false;
    this.#encryption = options.encryption;
  }

  /** Connects with TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE / TEMPORAL_TASK_QUEUE (+ TLS, API key) and RAMP_* timings. */
  static async connect(options: RampClientConnectOptions = {}): Promise<RampClient> {
    const env = options.env ?? process.env;
    const config = loadTemporalConfig(env);
    const address = options.address ?? config.address ?? `${config.devServer.ip}:${config.devServer.port}`;
    const encryption = loadEncryptionConfig(env);
    const dataConverter = dataConverterFromConfig(encryption);
    const connection = await connectClient(config, address);
    return new RampClient({
      connection,
      namespace: config.namespace,
      taskQueue: config.taskQueue,
      timings: options.timings ?? loadWorkflowTimings(env),
      ownsConnection: true,
      ...(dataConverter ? { dataConverter, encryption } : {}),
      ...(options.accountSetupWorkflowId ? { accountSetupWorkflowId: options.accountSetupWorkflowId } : {}),
    });
  }

  /** Closes the Temporal connection when this client opened it (connect()). */
  async close(): Promise<void> {
    if (this.#ownsConnection) await this.#connection.close();
  }

  // ------------------------------------------------------------------------------------------ end users

  /**
   * Creates the end user's workflow if needed (update-with-start) and answers the deposit wallet's addresses once
   * they exist. Any number of concurrent calls for one user lead to one wallet.
   */
  async ensureDepositWallet(endUserId: string): Promise<DepositWallet> {
    const id = parseEndUserId(endUserId);
    const workflowId = endUserWorkflowId(id);
    const startWorkflowOperation = new WithStartWorkflowOperation(endUserWorkflow, {
      workflowId,
      taskQueue: this.#taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: ONE_RUN_PER_PROCESS,
      args: [{ endUserId: id, ...this.#searchValueField(id), timings: this.#timings }],
    });
    try {
      return await this.temporal.workflow.executeUpdateWithStart(ensureDepositWalletUpdate, {
        startWorkflowOperation,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      // The user's process was closed by hand (it never ends by itself): a new run would create a second wallet.
      // A process closed before its first task ran cannot answer a query: then it has no wallet either.
      const ended = await this.getEndUser(id).catch(() => undefined);
      if (ended?.wallet) return ended.wallet;
      const { executionStatus } = await describeProcess(this.temporal, workflowId);
      throw new ProcessEndedError(
        `The process of end user ${id} has ended (${executionStatus}) without a deposit wallet; it is not started again`,
        workflowId,
        executionStatus,
      );
    }
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

  // ------------------------------------------------------------------------------------------ account setup

  /**
   * Runs the account setup (update-with-start on the long-lived account-setup workflow) and answers its result:
   * master and gas wallet addresses to whitelist, registered recipients, next steps. Safe to run again: it reuses
   * the wallets already recorded and adds only missing recipients.
   */
  async setupAccount(): Promise<AccountSetupResult> {
    const startWorkflowOperation = new WithStartWorkflowOperation(accountSetupWorkflow, {
      workflowId: this.#accountSetupWorkflowId,
      taskQueue: this.#taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: ONE_RUN_PER_PROCESS,
      args: [{ timings: this.#timings }],
    });
    try {
      return await this.temporal.workflow.executeUpdateWithStart(setupAccountUpdate, {
        startWorkflowOperation,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      // Closed by hand: a new run would create a second master and gas wallet.
      const { status, executionStatus } = await describeProcess(this.temporal, this.#accountSetupWorkflowId);
      throw new ProcessEndedError(
        `The account setup (${this.#accountSetupWorkflowId}) has ended (${status ?? executionStatus}); it is not started again`,
        this.#accountSetupWorkflowId,
        status,
      );
    }
  }

  /** The recorded account setup (result, wallets, recipients), or NotFoundError when it never ran. */
  async getAccount(): Promise<AccountSetupState> {
    try {
      return await this.temporal.workflow.getHandle(this.#accountSetupWorkflowId).query(accountStateQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError)
        throw new NotFoundError('The account setup has not run yet');
      throw error;
    }
  }

  // ------------------------------------------------------------------------------------------ quotes

  /**
   * A quote from the operator (through a short `quote/<uuid>` workflow). Input is validated first (InvalidInputError,
   * no call made). A quote that comes back already expired, or valid for less than `minValidityMs`, is requested
   * again; after `maxRequotes` such answers it throws QuoteExpiredError: an expired quote is never returned.
   */
  async quote(request: QuoteRequestInput, options: QuoteOptions = {}): Promise<QuoteResult> {
    const parsed = parseQuoteRequest(request);
    const maxRequotes = options.maxRequotes ?? 2;
    let last: QuoteResult | undefined;
    for (let attempt = 0; attempt <= maxRequotes; attempt += 1) {
      last = await this.temporal.workflow.execute(quoteWorkflow, {
        workflowId: `quote/${randomUUID()}`,
        taskQueue: this.#taskQueue,
        args: [{ request: parsed, timings: this.#timings }],
        workflowExecutionTimeout: this.#timings.activityScheduleToCloseMs,
      });
      if (this.isQuoteValid(last, options.minValidityMs)) return last;
    }
    throw new QuoteExpiredError(
      `The operator's quote expired before it could be used (expires_at ${last!.expiresAt}); request a new quote`,
      last!.expiresAt,
    );
  }

  /** The same quote while it stays valid for `minValidityMs`, otherwise a new quote for the same conversion. */
  async requote(quote: QuoteResult, options: QuoteOptions = {}): Promise<QuoteResult> {
    if (this.isQuoteValid(quote, options.minValidityMs)) return quote;
    return this.quote(requestOf(quote), options);
  }

  /** True while `now + minValidityMs` is before the quote's expiresAt (an unparsable expiresAt is not valid). */
  isQuoteValid(quote: Pick<QuoteResult, 'expiresAt'>, minValidityMs = 0): boolean {
    const expiresAtMs = Date.parse(quote.expiresAt);
    return Number.isFinite(expiresAtMs) && this.#now() + minValidityMs < expiresAtMs;
  }

  /** Throws QuoteExpiredError for a quote past its expiresAt: call before showing or using a quote. */
  assertQuoteValid(quote: Pick<QuoteResult, 'expiresAt'>, minValidityMs = 0): void {
    if (!this.isQuoteValid(quote, minValidityMs)) {
      throw new QuoteExpiredError(
        `The quote expired at ${quote.expiresAt}; request a new quote`,
        quote.expiresAt,
      );
    }
  }

  // ------------------------------------------------------------------------------------------ (append new sections below)

  // ------------------------------------------------------------------------------------------ ramps (issue 5)

  /**
   * Starts (or attributes) the on-ramp of an order reference for an end user: onramp/<reference>. With
   * `quoteRequest` it asks the operator for a quote first and records it as the one shown to the user; with
   * `quote` it records a quote shown earlier. Safe to call again, and before or after the order's first event
   * (an order event for an unknown reference starts the process unattributed; this call attributes it).
   */
  async startOnRamp(
    endUserId: string,
    reference: string,
    options: { quote?: QuoteResult | OnRampQuoteShown; quoteRequest?: QuoteRequestInput } = {},
  ): Promise<{ workflowId: string; quote?: OnRampQuoteShown }> {
    const id = parseEndUserId(endUserId);
    const orderReference = parseOrderReference(reference);
    const fromOptions = options.quoteRequest
      ? await this.quote({ ...options.quoteRequest, direction: 'on-ramp' })
      : options.quote;
    const quote: OnRampQuoteShown | undefined = fromOptions
      ? {
          targetAmount: fromOptions.targetAmount,
          expiresAt: fromOptions.expiresAt,
          ...(fromOptions.amountFrom ? { amountFrom: fromOptions.amountFrom } : {}),
          ...(fromOptions.coinTo ? { coinTo: fromOptions.coinTo } : {}),
          ...(fromOptions.chainTo ? { chainTo: fromOptions.chainTo } : {}),
        }
      : undefined;
    const workflowId = onRampWorkflowId(orderReference);
    const outcome = await signalWithStartProcess<typeof onRampWorkflow, [OnRampAttribution]>(
      this.temporal,
      'onRampWorkflow',
      {
        workflowId,
        taskQueue: this.#taskQueue,
        args: [
          {
            orderReference,
            endUserId: id,
            ...this.#searchValueField(id),
            timings: this.#timings,
            ...(quote ? { quote } : {}),
          },
        ],
        signal: onRampAttributionSignal,
        signalArgs: [{ endUserId: id, ...this.#searchValueField(id), ...(quote ? { quote } : {}) }],
      },
    );
    if (!outcome.delivered) {
      // An on-ramp runs once: a repeated call for the same end user answers the process as it ended.
      const ended = await this.getOnRamp(orderReference);
      if (ended.endUserId !== id) {
        throw new ConflictError(
          ended.endUserId === null
            ? `The on-ramp of order reference ${orderReference} has already ended (${ended.status}) without an end user; it is not started again`
            : `The on-ramp of order reference ${orderReference} belongs to another end user`,
        );
      }
    }
    return { workflowId, ...(quote ? { quote } : {}) };
  }

  /** The full state of offramp/<depositTransactionId>, or NotFoundError. */
  async getOffRamp(depositTransactionId: string): Promise<OffRampState> {
    const id = parseIdentifier(depositTransactionId, 'deposit transaction ID');
    try {
      return await this.temporal.workflow.getHandle(offRampWorkflowId(id)).query(offRampStateQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw new NotFoundError(`No off-ramp for deposit ${id}`);
      throw error;
    }
  }

  /** The full state of onramp/<orderReference>, or NotFoundError. */
  async getOnRamp(reference: string): Promise<OnRampState> {
    const orderReference = parseOrderReference(reference);
    try {
      return await this.temporal.workflow.getHandle(onRampWorkflowId(orderReference)).query(onRampStateQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError)
        throw new NotFoundError(`No on-ramp for order reference ${orderReference}`);
      throw error;
    }
  }

  /** On-ramp and off-ramp processes (newest first), by end user and/or status, from Temporal visibility. */
  async listProcesses(
    filter: { endUserId?: string; status?: string; direction?: 'on-ramp' | 'off-ramp'; limit?: number } = {},
  ): Promise<RampProcessSummary[]> {
    const clauses = [
      filter.direction ? `RampDirection = '${filter.direction}'` : `RampDirection IN ('on-ramp', 'off-ramp')`,
    ];
    const endUserId = filter.endUserId === undefined ? undefined : parseEndUserId(filter.endUserId);
    // With encryption keys, RampEndUserId holds the user's pseudonym (one per key, after a rotation) or, for
    // processes started before encryption was on, the ID itself: search for all of them.
    if (endUserId !== undefined)
      clauses.push(
        `RampEndUserId IN (${endUserSearchValues(endUserId, this.#encryption)
          .map((value) => `'${value}'`)
          .join(', ')})`,
      );
    if (filter.status !== undefined) {
      if (!/^[a-z-]{1,40}$/.test(filter.status))
        throw new InvalidInputError('Invalid status', ['status: lower-case letters and dashes only']);
      clauses.push(`RampStatus = '${filter.status}'`);
    }
    const limit = filter.limit ?? 100;
    const found: RampProcessSummary[] = [];
    const seen = new Set<string>();
    for await (const execution of this.temporal.workflow.list({
      query: clauses.join(' AND '),
      pageSize: Math.min(limit, 100),
    })) {
      // One entry per process: a process runs once per ID, and a run left from before that rule is not listed twice.
      if (seen.has(execution.workflowId)) continue;
      seen.add(execution.workflowId);
      const attributes = execution.typedSearchAttributes;
      found.push({
        workflowId: execution.workflowId,
        direction: attributes.get(RampDirection) === 'on-ramp' ? 'on-ramp' : 'off-ramp',
        status: attributes.get(RampStatus) ?? 'unknown',
        // A pseudonym is not an end user ID: answer the ID searched for, else null.
        endUserId: endUserId ?? clearEndUserId(attributes.get(EndUserId)),
        orderReference: attributes.get(OrderReference) ?? null,
        depositTransactionId: attributes.get(DepositTransactionId) ?? null,
        running: execution.status.name === 'RUNNING',
        startTime: execution.startTime.toISOString(),
        closeTime: execution.closeTime?.toISOString() ?? null,
      });
      if (found.length >= limit) break;
    }
    return found;
  }

  /** `{ endUserSearchValue }` (the pseudonym) when encryption keys are configured; nothing otherwise (older workers ignore it). */
  #searchValueField(endUserId: string): { endUserSearchValue?: string } {
    return this.#encryption?.keys.length
      ? { endUserSearchValue: endUserSearchValue(endUserId, this.#encryption) }
      : {};
  }

  // ------------------------------------------------------------------------------------------ operations (issue 6)

  /**
   * Open incidents (kind, network, first and last seen, details) and the recently resolved ones, from the incident
   * store (ops/alerts, or ALERTS_WORKFLOW_ID). Empty before the first alert.
   */
  async listAlerts(options: { workflowId?: string } = {}): Promise<AlertsState> {
    const workflowId = options.workflowId ?? process.env.ALERTS_WORKFLOW_ID ?? ALERTS_WORKFLOW_ID;
    try {
      return await this.temporal.workflow.getHandle(workflowId).query(alertsStateQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError)
        return {
          open: [],
          recentlyResolved: [],
          raisedTotal: 0,
          resolvedTotal: 0,
          runs: 0,
          since: new Date(this.#now()).toISOString(),
        };
      throw error;
    }
  }
}

// ---- operations (issue 6)
import { alertsStateQuery } from '../../workflows/messages';
import { ALERTS_WORKFLOW_ID, type AlertsState } from '../../workflows/ops-types';

function requestOf(quote: QuoteResult): QuoteRequestInput {
  const { direction, coinFrom, coinTo, chainFrom, chainTo, amountFrom } = quote;
  return direction === 'on-ramp'
    ? { direction, coinFrom, coinTo, ...(chainTo ? { chainTo } : {}), amountFrom }
    : { direction, coinFrom, coinTo, ...(chainFrom ? { chainFrom } : {}), amountFrom };
}

// ---- ramps (issue 5)

function clearEndUserId(value: string | undefined): string | null {
  return value === undefined || isEndUserPseudonym(value) ? null : value;
}

export interface RampProcessSummary {
  workflowId: string;
  direction: 'on-ramp' | 'off-ramp';
  status: string;
  /** Null when unattributed, or when RampEndUserId holds a pseudonym (encryption on) and no endUserId was searched for. */
  endUserId: string | null;
  orderReference: string | null;
  depositTransactionId: string | null;
  running: boolean;
  startTime: string;
  closeTime: string | null;
}

/** Order references become workflow IDs (onramp/<reference>) and visibility values: src/validation/identifiers.ts. */
export { parseOrderReference };
