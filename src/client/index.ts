/**
 * The typed client as a package: `import { RampClient } from 'ramp-orchestrator/client'` (package.json `exports`,
 * compiled by `npm run build`). The client, its errors and the types its calls take and answer.
 */
export {
  type DepositQuoteInput,
  type EndUserOverview,
  type OnRampStart,
  type ProcessFilter,
  type QuoteOptions,
  type RampClientConnectOptions,
  type RampClientOptions,
  type RampListFilter,
  type RampPage,
  type RampProcessSummary,
  type RampTarget,
  type StartOnRampOptions,
  type StatementItem,
  type StatementPeriod,
  type StatementRow,
  type StatementTotal,
  parseOrderReference,
  RampClient,
} from './ramp-client';
export * from './errors';
export { OutcomeTimeoutError } from './ramp-outcome';
export { RAMP_STATUSES } from './ramp-list';
export { parseQuoteRequest } from './quote-input';
export type { EventListFilter, EventPage, RedeliveryFilter, RedeliveryProgress } from './outcome-events';
export type { IncidentListFilter, IncidentPage } from './operations';
export type {
  EndUserView,
  EventView,
  OffRampView,
  OnRampView,
  RampSummary,
  Reconciled,
} from '../ledger/views';
export {
  OUTCOME_EVENT_TYPES,
  parseOutcomeWebhookId,
  type OutcomeDeliveryStatus,
  type OutcomeEvent,
  type OutcomeEventData,
  type OutcomeEventRecord,
  type OutcomeEventType,
} from '../domain/outcome-events';
export { RAMP_DIRECTIONS, type RampDirection } from '../domain/vocabulary';
export type { WorkflowTimings } from '../domain/timings';
export type { AccountSetupResult, AccountSetupState } from '../../workflows/account-setup/types';
export type { DepositWallet } from '../../workflows/end-user/types';
export type {
  Incident,
  IncidentAction,
  PersonNote,
  ResolvedIncident,
} from '../../workflows/operations/alerts/types';
export type { QuoteRequestInput, QuoteResult } from '../../workflows/quote/types';
export type { OffRampQuoteShown, OffRampStatus } from '../../workflows/ramps/offramp/types';
export type { AmountsAgainstQuote } from '../domain/amounts-against-quote';
export { EXCEPTION_REASONS, type ExceptionReason, type RampException } from '../domain/markets';
export type { RampGas } from '../domain/ramp-gas';
export type { OnRampQuoteShown, OnRampStatus } from '../../workflows/ramps/onramp/types';
