import type { RampClient } from '../client/ramp-client';

/** The part of the typed client the HTTP API uses (tests stub it). */
export type RampApi = Pick<RampClient, 'ensureDepositWallet' | 'getEndUser' | 'quote' | 'setupAccount' | 'getAccount' | 'listAlerts'>;
