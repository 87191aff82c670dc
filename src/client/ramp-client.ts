/**
 * The typed client the client's backend imports: one class over Temporal's client, whose calls live with their
 * process beside this file (end-user.ts, account-setup.ts, quote.ts, on-ramp.ts, off-ramp.ts, ramp-list.ts,
 * ramp-outcome.ts, operations.ts, outcomes.ts). The messages it sends are the ones each workflow defines in its
 * messages.ts.
 *
 * `connect()` is the one place of the client that reads the environment (for backends that configure it that way);
 * the constructor takes everything as options.
 */
import { Client, type Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { loadEncryptionConfig, type PayloadEncryptionConfig } from '../config/encryption';
import type { Env } from '../config/env';
import { loadTemporalConfig } from '../config/temporal';
import { loadWorkflowTimings } from '../config/timings';
import { DEFAULT_PROCESS_IDS, type ProcessIds } from '../domain/ids';
import type { WorkflowTimings } from '../domain/timings';
import { connectClient } from '../temporal/connection';
import { type Database, type Ledger, openDatabase } from '../database/connection';
import { loadDatabaseConfig, requiredDatabaseUrl } from '../config/database';
import type { EndUserView, EventView, OffRampView, OnRampView } from '../ledger/views';
import { dataConverterFromConfig } from '../temporal/data-converter';
import type { AccountSetupResult, AccountSetupState } from '../../workflows/account-setup/types';
import type { DepositWallet } from '../../workflows/end-user/types';
import type { Incident, IncidentAction, ResolvedIncident } from '../../workflows/operations/alerts/types';
import type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
import type { OffRampQuoteShown } from '../../workflows/ramps/offramp/types';
import * as accountSetup from './account-setup';
import * as depositQuotes from './deposit-quote';
import type { DepositQuoteInput } from './deposit-quote';
import type { ClientContext } from './context';
import * as endUsers from './end-user';
import * as operations from './operations';
import type { IncidentListFilter, IncidentPage } from './operations';
import * as outcomes from './outcomes';
import * as outcomeEvents from './outcome-events';
import type { EventListFilter, EventPage, RedeliveryFilter, RedeliveryProgress } from './outcome-events';
import * as quotes from './quote';
import type { QuoteOptions } from './quote';
import * as offRamps from './off-ramp';
import * as onRamps from './on-ramp';
import type { OnRampStart, StartOnRampOptions } from './on-ramp';
import * as rampList from './ramp-list';
import type { ProcessFilter, RampListFilter, RampPage, RampProcessSummary } from './ramp-list';
import { activeTracing } from '../temporal/tracing';
import * as rampOutcome from './ramp-outcome';
import * as statements from './statement';
import type { StatementItem, StatementPeriod } from './statement';
import type { RampTarget } from './ramp-outcome';
import type { EndUserOverview } from './end-user';

export type { EndUserOverview } from './end-user';
export type { DepositQuoteInput } from './deposit-quote';
export type { QuoteOptions } from './quote';
export type { OnRampStart, StartOnRampOptions } from './on-ramp';
export type { ProcessFilter, RampListFilter, RampPage, RampProcessSummary } from './ramp-list';
export type { RampTarget } from './ramp-outcome';
export type { StatementItem, StatementPeriod, StatementRow, StatementTotal } from './statement';

/** Order references become workflow IDs (onramp/<reference>) and visibility values: src/validation/identifiers.ts. */
export { parseOrderReference } from '../validation/identifiers';

export interface RampClientOptions {
  connection: Connection;
  namespace: string;
  taskQueue: string;
  timings: WorkflowTimings;
  /** The account-setup and alerts workflow IDs; DEFAULT_PROCESS_IDS by default (tests sharing a server pass their own). */
  processIds?: ProcessIds;
  /** Clock in epoch milliseconds, for quote validity checks. */
  now?: () => number;
  /** The product's database (openDatabase): every read comes from it. */
  database: Database;
  /** Close the connection and the database in close() (set by connect()). */
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
  /** Environment to read TEMPORAL_*, DATABASE_URL, RAMP_* and PAYLOAD_ENCRYPTION_KEYS from; process.env by default. */
  env?: Env;
  /** Overrides TEMPORAL_ADDRESS; without either, the local dev server address (TEMPORAL_DEV_IP:TEMPORAL_DEV_PORT). */
  address?: string;
  timings?: WorkflowTimings;
  /** Overrides the IDs read from the environment. */
  processIds?: ProcessIds;
}

/** The process IDs of the options: `processIds`, else `base`. */
export function processIdsOf(
  options: Pick<RampClientOptions, 'processIds'>,
  base: Readonly<ProcessIds> = DEFAULT_PROCESS_IDS,
): ProcessIds {
  return { ...(options.processIds ?? base) };
}

export class RampClient {
  readonly temporal: Client;
  readonly #connection: Connection;
  readonly #database: Database;
  readonly #ownsConnection: boolean;
  readonly #context: ClientContext;

  constructor(options: RampClientOptions) {
    // In a process that traces (the API, npm start), starts and updates carry the request's trace context.
    const tracing = activeTracing();
    this.temporal = new Client({
      connection: options.connection,
      namespace: options.namespace,
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
      ...(tracing ? { interceptors: { workflow: tracing.clientInterceptors } } : {}),
    });
    this.#connection = options.connection;
    this.#database = options.database;
    this.#ownsConnection = options.ownsConnection ?? false;
    this.#context = {
      temporal: this.temporal,
      ledger: options.database.db,
      taskQueue: options.taskQueue,
      timings: options.timings,
      processIds: processIdsOf(options),
      now: options.now ?? Date.now,
      encryption: options.encryption,
    };
  }

  /**
   * Connects with TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE / TEMPORAL_TASK_QUEUE (+ TLS, API key), DATABASE_URL, RAMP_*
   * timings, and PAYLOAD_ENCRYPTION_KEYS: the client's one read of the environment.
   */
  static async connect(options: RampClientConnectOptions = {}): Promise<RampClient> {
    const env = options.env ?? process.env;
    const config = loadTemporalConfig(env);
    const address = options.address ?? config.address ?? `${config.devServer.ip}:${config.devServer.port}`;
    const encryption = loadEncryptionConfig(env);
    const dataConverter = dataConverterFromConfig(encryption);
    const processIds = processIdsOf(options);
    const databaseUrl = requiredDatabaseUrl(loadDatabaseConfig(env), 'typed client');
    const connection = await connectClient(config, address);
    return new RampClient({
      connection,
      database: openDatabase(databaseUrl.reveal(), { applicationName: 'ramp-orchestrator client' }),
      namespace: config.namespace,
      taskQueue: config.taskQueue,
      timings: options.timings ?? loadWorkflowTimings(env),
      processIds,
      ownsConnection: true,
      ...(dataConverter ? { dataConverter, encryption } : {}),
    });
  }

  /** The account-setup and alerts workflow IDs this client uses. */
  get processIds(): Readonly<ProcessIds> {
    return this.#context.processIds;
  }

  /** The ledger this client reads (the HTTP API keeps its idempotency keys there too). */
  get ledger(): Ledger {
    return this.#context.ledger;
  }

  /** Closes the Temporal connection and the database when this client opened them (connect()). */
  async close(): Promise<void> {
    if (!this.#ownsConnection) return;
    await this.#connection.close();
    await this.#database.close();
  }

  // ------------------------------------------------------------------------------------------ end users: end-user.ts

  /**
   * Creates the end user's workflow if needed (update-with-start) and answers the deposit wallet's addresses once
   * they exist. Any number of concurrent calls for one user lead to one wallet.
   */
  ensureDepositWallet(endUserId: string): Promise<DepositWallet> {
    return endUsers.ensureDepositWallet(this.#context, endUserId);
  }

  /** The end user's view (wallet and status), or NotFoundError for a user we never saw. */
  getEndUser(endUserId: string): Promise<EndUserView> {
    return endUsers.getEndUser(this.#context, endUserId);
  }

  /**
   * The end user's view (when the user has an end-user process) and newest ramps of both directions; NotFoundError
   * when there is neither.
   */
  getEndUserOverview(endUserId: string): Promise<EndUserOverview> {
    return endUsers.getEndUserOverview(this.#context, endUserId);
  }

  /** The deposit wallet if it exists; undefined for a known user without one yet. */
  async getDepositWallet(endUserId: string): Promise<DepositWallet | undefined> {
    return (await this.getEndUser(endUserId)).wallet ?? undefined;
  }

  // ------------------------------------------------------------------------------------------ account setup: account-setup.ts

  /**
   * Runs the account setup (update-with-start on the long-lived account-setup workflow) and answers its result:
   * master and gas wallet addresses to whitelist, registered recipients, next steps. Safe to run again: it reuses
   * the wallets already recorded and adds only missing recipients.
   */
  setupAccount(): Promise<AccountSetupResult> {
    return accountSetup.setupAccount(this.#context);
  }

  /** The recorded account setup (result, wallets, recipients), or NotFoundError when it never ran. */
  getAccount(): Promise<AccountSetupState> {
    return accountSetup.getAccount(this.#context);
  }

  // ------------------------------------------------------------------------------------------ quotes: quote.ts

  /**
   * A quote from the operator (through a short `quote/<uuid>` workflow). Input is validated first (InvalidInputError,
   * no call made). A quote that comes back already expired, or valid for less than `minValidityMs`, is requested
   * again; after `maxRequotes` such answers it throws QuoteExpiredError: an expired quote is never returned.
   */
  quote(request: QuoteRequestInput, options: QuoteOptions = {}): Promise<QuoteResult> {
    return quotes.quote(this.#context, request, options);
  }

  /** The same quote while it stays valid for `minValidityMs`, otherwise a new quote for the same conversion. */
  requote(quote: QuoteResult, options: QuoteOptions = {}): Promise<QuoteResult> {
    return quotes.requote(this.#context, quote, options);
  }

  /** True while `now + minValidityMs` is before the quote's expiresAt (an unparsable expiresAt is not valid). */
  isQuoteValid(quote: Pick<QuoteResult, 'expiresAt'>, minValidityMs = 0): boolean {
    return quotes.isQuoteValid(this.#context, quote, minValidityMs);
  }

  /** Throws QuoteExpiredError for a quote past its expiresAt: call before showing or using a quote. */
  assertQuoteValid(quote: Pick<QuoteResult, 'expiresAt'>, minValidityMs = 0): void {
    quotes.assertQuoteValid(this.#context, quote, minValidityMs);
  }

  /**
   * Records the quote the end user is shown for their next crypto deposit (`quoteRequest`: asked for now, an off-ramp
   * quote; `quote`: one held already): that deposit's off-ramp compares what executed with it (`amounts`) and raises
   * `off_quote` beyond the tolerance. One quote, one deposit; a later call replaces a quote no deposit took yet.
   * NotFoundError for an end user without a deposit wallet.
   */
  showDepositQuote(endUserId: string, input: DepositQuoteInput): Promise<OffRampQuoteShown> {
    return depositQuotes.showDepositQuote(this.#context, endUserId, input);
  }

  // ------------------------------------------ ramps: on-ramp.ts, off-ramp.ts, ramp-list.ts, ramp-outcome.ts

  /**
   * Starts (or attributes) the on-ramp of an order reference for an end user: onramp/<reference>. With
   * `quoteRequest` it asks the operator for a quote first and records it as the one shown to the user; with
   * `quote` it records a quote shown earlier. Safe to call again, and before or after the order's first event
   * (an order event for an unknown reference starts the process unattributed; this call attributes it). An on-ramp
   * that ended without an end user stays claimable for ONRAMP_CLAIM_WINDOW: this call then claims it (`claimed`,
   * and `on_ramp.claimed` is raised). Called again for the same end user it answers the process as it is (no new
   * quote); ConflictError when the reference belongs to another end user, running or ended; ClaimWindowClosedError
   * (naming its incident) when it closed unclaimed.
   */
  startOnRamp(endUserId: string, reference: string, options: StartOnRampOptions = {}): Promise<OnRampStart> {
    return onRamps.startOnRamp(this.#context, endUserId, reference, options);
  }

  /** The view of offramp/<depositTransactionId>, or NotFoundError. */
  getOffRamp(depositTransactionId: string): Promise<OffRampView> {
    return offRamps.getOffRamp(this.#context, depositTransactionId);
  }

  /** The view of onramp/<orderReference>, or NotFoundError. */
  getOnRamp(reference: string): Promise<OnRampView> {
    return onRamps.getOnRamp(this.#context, reference);
  }

  /** On-ramps and off-ramps (newest first), by end user and/or status, from the ledger. */
  listProcesses(filter: ProcessFilter = {}): Promise<RampProcessSummary[]> {
    return rampList.listProcesses(this.#context, filter);
  }

  /**
   * One page of on-ramps and off-ramps, newest first (filters checked first: InvalidInputError). Pass the answer's
   * `nextPageToken` with the same filter for the next page; following it to null lists each process once.
   */
  listRamps(filter: RampListFilter = {}): Promise<RampPage> {
    return rampList.listRamps(this.#context, filter);
  }

  /**
   * Waits until the ramp has ended (settled, expired, failed, timed out) and answers its final view;
   * OutcomeTimeoutError after `timeoutMs` (default 60 s), NotFoundError for an unknown ramp.
   */
  waitForOutcome(target: { orderReference: string }, options?: { timeoutMs?: number }): Promise<OnRampView>;
  waitForOutcome(
    target: { depositTransactionId: string },
    options?: { timeoutMs?: number },
  ): Promise<OffRampView>;
  waitForOutcome(
    target: RampTarget,
    options: { timeoutMs?: number } = {},
  ): Promise<OnRampView | OffRampView> {
    return rampOutcome.waitForOutcome(this.#context, target, options);
  }

  /**
   * The settlement statement of a period (`from` inclusive, `to` exclusive, ISO 8601): one `row` per ramp booked in
   * it (settled, failed, expired, timed out, exception, unclaimed; a claimed on-ramp when it was claimed), each with
   * what reconciliation last found at the operator, then the `totals` per status and asset. Read page by page:
   * iterate it and write each row out (`for await (const item of ramp.statement(period))`). InvalidInputError for a
   * bad period, before anything is read.
   */
  statement(period: StatementPeriod): AsyncGenerator<StatementItem> {
    statements.parseStatementPeriod(period);
    return statements.statement(this.#context, period);
  }

  // ------------------------------------------------------------------------------------------ operations: operations.ts

  /**
   * Incidents from the incident store, newest first, a page at a time: the open ones (the default) or the resolved
   * ones (`status: 'resolved'`), of one `kind` if given. InvalidInputError for a bad filter, NotFoundError for a
   * page token of another filter.
   */
  listAlerts(filter: IncidentListFilter = {}): Promise<IncidentPage> {
    return operations.listAlerts(this.#context, filter);
  }

  /**
   * Marks an open incident as taken by someone on call, with who and why (`by`, `reason`); a second
   * acknowledgement replaces the first. InvalidInputError without who or why, NotFoundError when no incident of
   * that key is open.
   */
  acknowledgeIncident(action: IncidentAction): Promise<Incident> {
    return operations.acknowledgeIncident(this.#context, action);
  }

  /**
   * Closes an open incident by hand, with who and why; should its cause persist, the next alert opens a new one.
   * InvalidInputError without who or why, NotFoundError when no incident of that key is open.
   */
  resolveIncident(action: IncidentAction): Promise<ResolvedIncident> {
    return operations.resolveIncident(this.#context, action);
  }

  // ------------------------------------------------------------------------------------------ outcome events: outcomes.ts

  /**
   * Puts a recorded outcome event back in its process's queue, to be sent again now with the same `webhook-id` and
   * body (also for a closed process), and answers it. InvalidInputError for a malformed ID, NotFoundError when there
   * is no such event.
   */
  redeliverEvent(webhookId: string): Promise<EventView> {
    return outcomes.redeliverEvent(this.#context, webhookId);
  }

  // ------------------------------------------------------------------------------------------ the events API: outcome-events.ts

  /**
   * One page of outcome events, newest first, with how each one's delivery stands and its place in its process's
   * queue, from the moment it was raised (filters checked first: InvalidInputError). Following `nextPageToken` with
   * the same filter lists each event once.
   */
  listEvents(filter: EventListFilter = {}): Promise<EventPage> {
    return outcomeEvents.listEvents(this.#context, filter);
  }

  /** One outcome event with its delivery, or NotFoundError. */
  getEvent(webhookId: string): Promise<EventView> {
    return outcomeEvents.getEvent(this.#context, webhookId);
  }

  /** Redelivers every event a filter matches (for instance every failed one since T) as one job. */
  startRedeliveryJob(filter: RedeliveryFilter): Promise<RedeliveryProgress> {
    return outcomeEvents.startRedeliveryJob(this.#context, filter);
  }

  /** How a redelivery job stands, or NotFoundError. */
  getRedeliveryJob(jobId: string): Promise<RedeliveryProgress> {
    return outcomeEvents.getRedeliveryJob(this.#context, jobId);
  }

  /** Sends a signed test.ping to every endpoint; its delivery can be read with getEvent. */
  sendTestEvent(): Promise<EventView> {
    return outcomeEvents.sendTestEvent(this.#context);
  }
}
