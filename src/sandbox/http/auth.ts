/**
 * Bearer + CSRF check of every operator call but the two login steps, under the profile: its `unauthenticated`
 * status (401 by default) for a missing, unknown or expired bearer token; its `csrf` status (403) for a missing or
 * wrong CSRF value under any of its CSRF header names (`x-csrf-token` or `x-irs-csrf-token` by default; every one
 * present must match; other names are ignored).
 * Tokens are looked up by their SHA-256 digest and compared in constant time; they never reach a log.
 */
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { SandboxContext } from '../context';
import { sameSha256Hex, sha256Hex } from '../../secrets/compare';
import { SandboxError } from '../errors';

export const newSecret = (): string => randomBytes(32).toString('base64url');

export const unauthenticated = (code: string, message: string) =>
  new SandboxError('unauthenticated', code, message);
const forbidden = (code: string, message: string) => new SandboxError('csrf', code, message);

export function requireAuth(ctx: SandboxContext) {
  const csrfHeaderNames = ctx.config.profile.csrfHeaderNames;
  return (req: Request, _res: Response, next: NextFunction): void => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match)
      throw unauthenticated('unauthenticated', 'A bearer token is required (Authorization: Bearer <token>)');
    const record = ctx.state.tokens.get(sha256Hex(match[1]!));
    if (!record) throw unauthenticated('invalid_token', 'The bearer token is not valid');
    if (record.expiresAt <= ctx.clock.now())
      throw unauthenticated('token_expired', 'The bearer token has expired; log in again');
    const values = csrfHeaderNames
      .map((name) => req.get(name))
      .filter((value): value is string => value !== undefined);
    if (values.length === 0)
      throw forbidden('csrf_missing', `A CSRF token is required (${csrfHeaderNames.join(' or ')})`);
    if (!values.every((value) => sameSha256Hex(sha256Hex(value), record.csrfDigest))) {
      throw forbidden('csrf_invalid', 'The CSRF token does not match the session');
    }
    next();
  };
}
