/**
 * The two login steps (at the profile's routes, with its field names: src/domain/operator-profile.ts):
 * StartSession answers a login session whose ID expires after the config's sessionIdLifetimeMs and can be
 * used once (any Authentication attempt consumes it); Authentication checks e-mail and passcode (401
 * otherwise) and issues a bearer and a CSRF token that live tokenLifetimeMs.
 */
import { randomUUID } from 'node:crypto';
import { profileSchemas } from '../../operator/profile-schemas';
import type { SandboxContext } from '../context';
import { parseOr400 } from '../errors';
import { newSecret, unauthenticated } from '../http/auth';
import { sameSecret, sha256Hex } from '../../secrets/compare';
import { sendData } from '../http/respond';
import type { OperatorHandlers } from './types';

export function authHandlers(ctx: SandboxContext): OperatorHandlers<'startSession' | 'authenticate'> {
  return {
    startSession(_req, res) {
      const now = ctx.clock.now();
      const id = randomUUID();
      const expiresAt = now + ctx.config.sessionIdLifetimeMs;
      ctx.state.loginSessions.set(id, { id, expiresAt, used: false });
      sendData(res, 200, {
        id,
        isCompleted: false,
        identityType: 'business-user',
        class: 'login',
        classId: 'api-email-v1',
        activeStep: '1-auth-with-passcode',
        expiresAt: ctx.clock.isoNanos(expiresAt),
      });
    },

    authenticate(req, res) {
      const body = parseOr400(profileSchemas(ctx.config.profile).authenticationRequest, req.body);
      const session = ctx.state.loginSessions.get(body.sessionId);
      if (!session) throw unauthenticated('invalid_session', 'The login session ID is not valid');
      if (session.used)
        throw unauthenticated('session_used', 'The login session ID was already used; start a new session');
      session.used = true;
      if (session.expiresAt <= ctx.clock.now())
        throw unauthenticated('session_expired', 'The login session ID has expired; start a new session');
      const emailOk = body.email.toLowerCase() === ctx.config.email.toLowerCase();
      const passcodeOk = sameSecret(body.passcode, ctx.config.passcode);
      if (!emailOk || !passcodeOk)
        throw unauthenticated('invalid_credentials', 'The e-mail or the passcode is wrong');
      const token = newSecret();
      const csrfToken = newSecret();
      const now = ctx.clock.now();
      const expiresAt = now + (ctx.faults.tokenLifetimeMs ?? ctx.config.tokenLifetimeMs);
      ctx.state.tokens.set(sha256Hex(token), { csrfDigest: sha256Hex(csrfToken), issuedAt: now, expiresAt });
      sendData(res, 200, {
        id: session.id,
        isCompleted: true,
        activeStep: 'completed',
        session: { token, csrfToken, expiresAt: ctx.clock.isoNanos(expiresAt) },
      });
    },
  };
}
