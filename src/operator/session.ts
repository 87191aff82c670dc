/**
 * The operator login session: StartSession then Authentication, tokens kept in memory only.
 *
 * - Logs in lazily on first use and again before the token expires (expiresAt minus the refresh margin).
 * - Single-flight: concurrent callers that need a login share one in-flight login.
 * - An `unauthenticated` answer (the profile's status) means the token died early (revoked, operator restarted):
 *   log in again once and retry the call once; a second one is final.
 * - The token and CSRF value live in ES private fields, and toJSON / util.inspect show only `status()`.
 */
import { inspect } from 'node:util';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { registerSecret } from '../secrets/known-secrets';
import type { SecretString } from '../secrets/secret-string';
import type { OperatorProfile } from '../domain/operator-profile';
import { formatIssues } from '../domain/errors';
import { OperatorError, OperatorResponseError } from './errors';
import type { OperatorTransport } from './http';
import { authenticationBody, profileSchemas } from './profile-schemas';

/** Log in again this long before a token expires: room for a login and the call it serves, by a wide margin. */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

export interface SessionManagerOptions {
  transport: OperatorTransport;
  /** The login's field names and the CSRF header names. */
  profile: OperatorProfile;
  email: string;
  passcode: SecretString;
  /** Assumed token life when the operator's session has no usable expiresAt. */
  tokenLifetimeMs: number;
  /**
   * Log in again this long before expiresAt (default TOKEN_REFRESH_MARGIN_MS); capped at half the token's life so
   * short-lived tokens still get used.
   */
  refreshMarginMs?: number;
  logger: Logger;
  /** Clock in epoch milliseconds; injectable so tests move time instead of sleeping. */
  now?: () => number;
}

export interface SessionStatus {
  loggedIn: boolean;
  /** ISO timestamp at which the current token expires, or null before the first login. */
  expiresAt: string | null;
  /** ISO timestamp after which the next call logs in again. */
  refreshAt: string | null;
  /** Logins performed by this manager since it was created. */
  logins: number;
}

interface ActiveSession {
  token: string;
  csrfToken: string;
  expiresAtMs: number;
  refreshAtMs: number;
}

interface StartSessionAnswer {
  data: { id: string };
}
interface AuthenticationAnswer {
  data: { session: { token: string; csrfToken: string; expiresAt?: string } };
}

export type AuthHeaders = Record<string, string>;

export class SessionManager {
  readonly #options: SessionManagerOptions;
  readonly #now: () => number;
  #session: ActiveSession | undefined;
  #loginInFlight: Promise<ActiveSession> | undefined;
  #logins = 0;

  constructor(options: SessionManagerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    registerSecret(options.passcode.reveal());
  }

  /**
   * Runs one authenticated operator call with fresh headers. On a 401 it logs in again (once) and repeats the
   * call; if that also gets a 401, the error is thrown and is not retryable.
   */
  async call<T>(perform: (headers: AuthHeaders) => Promise<T>): Promise<T> {
    const session = await this.#currentSession();
    try {
      return await perform(this.#headersFor(session));
    } catch (error) {
      if (!(error instanceof OperatorError) || error.code !== 'unauthenticated') throw error;
      this.#options.logger.info(
        { operation: error.operation },
        'operator rejected the session token; logging in again',
      );
      const fresh = await this.#replaceSession(session);
      return await perform(this.#headersFor(fresh));
    }
  }

  /** Logs in now unless the session is good until its refresh time; joins a login already in flight. */
  async ready(): Promise<void> {
    await this.#currentSession();
  }

  /** Forces a new login now (the session-refresh activity), joining one already in flight. */
  async refresh(): Promise<SessionStatus> {
    if (!this.#loginInFlight) this.#session = undefined;
    await this.#login();
    return this.status();
  }

  /** Non-secret facts about the session. */
  status(): SessionStatus {
    const session = this.#session;
    return {
      loggedIn: session !== undefined && this.#now() < session.expiresAtMs,
      expiresAt: session ? new Date(session.expiresAtMs).toISOString() : null,
      refreshAt: session ? new Date(session.refreshAtMs).toISOString() : null,
      logins: this.#logins,
    };
  }

  toJSON(): SessionStatus {
    return this.status();
  }

  [inspect.custom](): string {
    return `SessionManager ${JSON.stringify(this.status())}`;
  }

  async #currentSession(): Promise<ActiveSession> {
    const session = this.#session;
    if (session && this.#now() < session.refreshAtMs) return session;
    return this.#login();
  }

  /** Drops the session that got a 401, unless a concurrent caller has already replaced it. */
  async #replaceSession(stale: ActiveSession): Promise<ActiveSession> {
    if (this.#session === stale) this.#session = undefined;
    return this.#currentSession();
  }

  #login(): Promise<ActiveSession> {
    this.#loginInFlight ??= this.#performLogin().finally(() => {
      this.#loginInFlight = undefined;
    });
    return this.#loginInFlight;
  }

  #headersFor(session: ActiveSession): AuthHeaders {
    const headers: AuthHeaders = { authorization: `Bearer ${session.token}` };
    for (const name of this.#options.profile.csrfHeaderNames) headers[name] = session.csrfToken;
    return headers;
  }

  async #performLogin(): Promise<ActiveSession> {
    const { transport, email, passcode, logger, profile } = this.#options;
    const { responses } = profileSchemas(profile);
    const started = await transport.send({ operation: 'startSession', body: {} });
    const loginSession = (responses.startSession as z.ZodType<StartSessionAnswer>).safeParse(started.body);
    if (!loginSession.success) {
      throw new OperatorResponseError(
        'startSession',
        started.status,
        formatIssues(loginSession.error.issues),
      );
    }

    const authenticated = await transport.send({
      operation: 'authenticate',
      body: authenticationBody(profile.login.fields, {
        sessionId: loginSession.data.data.id,
        email,
        passcode: passcode.reveal(),
      }),
    });
    const parsed = (responses.authenticate as z.ZodType<AuthenticationAnswer>).safeParse(authenticated.body);
    if (!parsed.success) {
      throw new OperatorResponseError(
        'authenticate',
        authenticated.status,
        formatIssues(parsed.error.issues),
      );
    }
    const { token, csrfToken, expiresAt } = parsed.data.data.session;
    // Registered before anything else can log or throw, so the values are scrubbed wherever they surface.
    registerSecret(token);
    registerSecret(csrfToken);

    const obtainedAtMs = this.#now();
    const fromServer = expiresAt === undefined ? Number.NaN : Date.parse(expiresAt);
    const expiresAtMs =
      Number.isFinite(fromServer) && fromServer > obtainedAtMs
        ? fromServer
        : obtainedAtMs + this.#options.tokenLifetimeMs;
    const marginMs = Math.min(
      this.#options.refreshMarginMs ?? TOKEN_REFRESH_MARGIN_MS,
      (expiresAtMs - obtainedAtMs) / 2,
    );
    const session: ActiveSession = { token, csrfToken, expiresAtMs, refreshAtMs: expiresAtMs - marginMs };

    this.#session = session;
    this.#logins += 1;
    logger.info(
      {
        expiresAt: new Date(expiresAtMs).toISOString(),
        refreshAt: new Date(session.refreshAtMs).toISOString(),
      },
      'operator session established',
    );
    return session;
  }
}
