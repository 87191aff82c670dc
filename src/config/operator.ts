import { z } from 'zod';
import type { OperatorProfile } from '../domain/operator-profile';
import { SecretString } from '../secrets/secret-string';
import { durationMs } from './duration';
import { type Env, parseSection } from './env';
import { operatorProfileFile } from './operator-profile';
import { SANDBOX_DEFAULTS as SANDBOX_OPERATOR } from './sandbox';
import { setting } from './setting';

const READ_BY = ['npm start', 'worker', 'receiver', 'operator:probe'] as const;

export const operatorEnv = z.object({
  OPERATOR_BASE_URL: setting(z.url({ protocol: /^https?$/ }).default(SANDBOX_OPERATOR.url), {
    group: 'production',
    default: 'sandbox mode',
    meaning:
      "The operator's API base URL. Unset is sandbox mode: npm start runs the sandbox operator, and the receiver " +
      'and API accept development defaults for their secrets.',
    readBy: READ_BY,
    required: 'yes',
    example: 'https://api.operator.example',
  }),
  OPERATOR_EMAIL: setting(z.string().min(1).default(SANDBOX_OPERATOR.email), {
    group: 'production',
    default: "the sandbox's",
    meaning: 'The login e-mail of our account at the operator.',
    readBy: READ_BY,
    required: 'yes',
    example: 'ramps@client.example',
  }),
  OPERATOR_PASSCODE: setting(z.string().min(1).default(SANDBOX_OPERATOR.passcode), {
    group: 'production',
    default: "the sandbox's",
    meaning: 'The login passcode of that account.',
    secret: true,
    readBy: READ_BY,
    required: 'yes',
  }),
  OPERATOR_PROFILE: setting(operatorProfileFile(), {
    group: 'production',
    default: 'our assumptions',
    meaning:
      "A JSON file of corrections to what we assume of the operator's API where its spec leaves a choice open " +
      '(routes, CSRF header names, login fields, error body, paging, vocabulary, link fields; docs/operator.md ' +
      'lists every key). Checked at start: a bad key stops the process and is named. `npm run operator:probe` ' +
      'says which assumptions hold.',
    readBy: READ_BY,
  }),
  OPERATOR_TOKEN_LIFETIME: setting(durationMs('24h'), {
    group: 'tests shorten',
    default: '24h',
    meaning: "The session's life when the operator's login answer gives no usable expiresAt.",
    readBy: READ_BY,
  }),
  OPERATOR_REQUEST_TIMEOUT: setting(durationMs('15s'), {
    group: 'tests shorten',
    default: '15s',
    meaning: 'One HTTP call to the operator.',
    readBy: READ_BY,
  }),
});

export interface OperatorConfig {
  baseUrl: string;
  email: string;
  passcode: SecretString;
  /** Used when the operator's session carries no usable expiresAt. */
  tokenLifetimeMs: number;
  /** For tests that shorten it; default TOKEN_REFRESH_MARGIN_MS of the session. */
  tokenRefreshMarginMs?: number;
  requestTimeoutMs: number;
  /** Our assumptions with OPERATOR_PROFILE's corrections applied. */
  profile: OperatorProfile;
  /** For tests that page through small pages; default the profile's paging.defaultLimit. */
  pageSize?: number;
}

/** `profileWhenUnset`: the profile when OPERATOR_PROFILE is not set (npm start: the sandbox's). */
export function loadOperatorConfig(
  env: Env,
  options: { profileWhenUnset?: OperatorProfile } = {},
): OperatorConfig {
  const parsed = parseSection('operator', operatorEnv, env);
  const profileSet = env.OPERATOR_PROFILE !== undefined && env.OPERATOR_PROFILE.trim() !== '';
  return {
    baseUrl: parsed.OPERATOR_BASE_URL.replace(/\/+$/, ''),
    email: parsed.OPERATOR_EMAIL,
    passcode: new SecretString(parsed.OPERATOR_PASSCODE),
    tokenLifetimeMs: parsed.OPERATOR_TOKEN_LIFETIME,
    requestTimeoutMs: parsed.OPERATOR_REQUEST_TIMEOUT,
    profile: profileSet ? parsed.OPERATOR_PROFILE : (options.profileWhenUnset ?? parsed.OPERATOR_PROFILE),
  };
}
