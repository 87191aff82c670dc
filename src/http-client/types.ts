/**
 * What the HTTP client sends and gets, typed from the zod schemas the server validates and answers with
 * (src/api/schemas.ts): type imports only, so the client carries no schema code and cannot drift from the server.
 */
import type { z } from 'zod';
import type * as schemas from '../api/schemas';

type Out<S extends z.ZodType> = z.output<S>;
type In<S extends z.ZodType> = z.input<S>;

export type DepositWallet = Out<typeof schemas.depositWalletSchema>;
export type EndUser = Out<typeof schemas.endUserOverviewSchema>;
export type QuoteRequest = In<typeof schemas.quoteRequestComponent>;
export type Quote = Out<typeof schemas.quoteSchema>;
export type OffRampQuoteRequest = In<typeof schemas.offRampQuoteRequestComponent>;
export type DepositQuote = Out<typeof schemas.offRampQuoteShownSchema>;
export type StartOnRampRequest = In<typeof schemas.startOnRampRequestSchema>;
export type OnRamp = Out<typeof schemas.onRampViewSchema>;
export type OffRamp = Out<typeof schemas.offRampViewSchema>;
export type RampPage = Out<typeof schemas.rampPageSchema>;
export type RampListFilter = { [K in keyof In<typeof schemas.rampListQuerySchema>]?: string | number };
export type AccountSetupResult = Out<typeof schemas.accountSetupResultSchema>;
export type AccountSetupState = Out<typeof schemas.accountSetupStateSchema>;
export type IncidentPage = Out<typeof schemas.incidentPageSchema>;
export type IncidentListFilter = {
  [K in keyof In<typeof schemas.incidentListQuerySchema>]?: string | number;
};
export type Incident = Out<typeof schemas.incidentSchema>;
export type ResolvedIncident = Out<typeof schemas.resolvedIncidentSchema>;
export type IncidentAction = In<typeof schemas.incidentActionSchema>;
export type OutcomeEvent = Out<typeof schemas.outcomeEventSchema>;
export type EventRecord = Out<typeof schemas.eventViewSchema>;
export type EventPage = Out<typeof schemas.eventPageSchema>;
export type EventListFilter = { [K in keyof In<typeof schemas.eventListQuerySchema>]?: string | number };
export type RedeliveryRequest = In<typeof schemas.redeliveryRequestSchema>;
export type RedeliveryJob = Out<typeof schemas.redeliveryJobSchema>;
export type ApiErrorBody = Out<typeof schemas.errorSchema>;
