import type { RampClient } from '../client/ramp-client';

/**
 * The part of the typed client the HTTP API uses (tests stub it). With `temporal` (a RampClient has it), the
 * routes' gRPC calls carry the API's Temporal deadline themselves, not only its answer.
 */
export type RampApi = Pick<
  RampClient,
  | 'ensureDepositWallet'
  | 'showDepositQuote'
  | 'getEndUserOverview'
  | 'quote'
  | 'setupAccount'
  | 'getAccount'
  | 'listAlerts'
  | 'acknowledgeIncident'
  | 'resolveIncident'
  | 'startOnRamp'
  | 'getOnRamp'
  | 'getOffRamp'
  | 'listRamps'
  | 'redeliverEvent'
  | 'listEvents'
  | 'getEvent'
  | 'startRedeliveryJob'
  | 'getRedeliveryJob'
  | 'sendTestEvent'
  | 'statement'
> &
  Partial<Pick<RampClient, 'temporal'>>;

/**
 * Runs one call of a route (Temporal, the ledger or both) under the API's deadline: 503 with Retry-After once it
 * passes, or when either answers that it is away.
 */
export type TemporalCall = <T>(fn: () => Promise<T>) => Promise<T>;
