/** A stubbed RampApi and an app over it, for the API's unit specs; every answer is checked against the document. */
import pino from 'pino';
import { createApiApp } from '../../src/api/app';
import type { IdempotencyStore } from '../../src/api/idempotency';
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
    statement: jest.fn(),
    ...overrides,
  };
}

type KeyMocks = { [K in keyof IdempotencyStore]: jest.Mock };

/** Every key is new: the request runs (test/src/api/idempotency.test.ts exercises the other answers). */
export const freshKeys = (): KeyMocks => ({
  claim: jest.fn().mockResolvedValue({ outcome: 'execute' }),
  record: jest.fn().mockResolvedValue(undefined),
  release: jest.fn().mockResolvedValue(undefined),
});

export function stubApp(overrides: Partial<RampMocks> = {}, options: { temporalTimeoutMs?: number } = {}) {
  const ramp = stubRamp(overrides);
  const keys = freshKeys();
  const app = createApiApp({
    ramp,
    idempotency: keys,
    apiKey: new SecretString(API_KEY),
    logger: pino({ level: 'silent' }),
    ...options,
  });
  return { app: recordAnswers(app), ramp, keys };
}
