/** A stubbed RampApi and an app over it, for the API's unit specs. */
import pino from 'pino';
import { createApiApp } from '../../src/api/app';
import type { RampApi } from '../../src/api/types';
import { SecretString } from '../../src/secrets/secret-string';

export const API_KEY = 'unit-test-api-key-0123456789';
export const AUTH = { Authorization: `Bearer ${API_KEY}` };

export function stubApp(overrides: Partial<Record<Exclude<keyof RampApi, 'temporal'>, jest.Mock>> = {}) {
  const ramp = {
    ensureDepositWallet: jest.fn(),
    getEndUser: jest.fn(),
    quote: jest.fn(),
    setupAccount: jest.fn(),
    getAccount: jest.fn(),
    listAlerts: jest.fn(),
    ...overrides,
  };
  const app = createApiApp({
    ramp: ramp,
    apiKey: new SecretString(API_KEY),
    logger: pino({ level: 'silent' }),
  });
  return { app, ramp };
}
