/** A stubbed RampApi and an app over it, for the API's unit specs; every answer is checked against the document. */
import pino from 'pino';
import { createApiApp } from '../../src/api/app';
import type { RampApi } from '../../src/api/types';
import { SecretString } from '../../src/secrets/secret-string';
import { checkAnswersAfterEach, recordAnswers } from './openapi-answers';

export const API_KEY = 'unit-test-api-key-0123456789';
export const AUTH = { Authorization: `Bearer ${API_KEY}` };

checkAnswersAfterEach();

type RampMocks = Record<Exclude<keyof RampApi, 'temporal'>, jest.Mock>;

export function stubRamp(overrides: Partial<RampMocks> = {}): RampMocks {
  return {
    ensureDepositWallet: jest.fn(),
    showDepositQuote: jest.fn(),
    getEndUserOverview: jest.fn(),
    quote: jest.fn(),
    setupAccount: jest.fn(),
    getAccount: jest.fn(),
    listAlerts: jest.fn(),
    acknowledgeIncident: jest.fn(),
    resolveIncident: jest.fn(),
    startOnRamp: jest.fn(),
    getOnRamp: jest.fn(),
    getOffRamp: jest.fn(),
    listRamps: jest.fn(),
    redeliverEvent: jest.fn(),
    listEvents: jest.fn(),
    getEvent: jest.fn(),
    startRedeliveryJob: jest.fn(),
    getRedeliveryJob: jest.fn(),
    sendTestEvent: jest.fn(),
    // Every key is new: the request runs (test/src/api/idempotency.test.ts exercises the other answers).
    claimIdempotencyKey: jest.fn().mockResolvedValue({ outcome: 'execute' }),
    recordIdempotentAnswer: jest.fn().mockResolvedValue(undefined),
    releaseIdempotencyKey: jest.fn().mockResolvedValue(undefined),
    statement: jest.fn(),
    ...overrides,
  };
}

export function stubApp(overrides: Partial<RampMocks> = {}, options: { temporalTimeoutMs?: number } = {}) {
  const ramp = stubRamp(overrides);
  const app = createApiApp({
    ramp,
    apiKey: new SecretString(API_KEY),
    logger: pino({ level: 'silent' }),
    ...options,
  });
  return { app: recordAnswers(app), ramp };
}
