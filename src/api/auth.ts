import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { SecretString } from '../config/operator';
import { sendError } from './errors';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** `Authorization: Bearer <API_KEY>`, compared in constant time over equal-length SHA-256 digests. */
export function requireApiKey(apiKey: SecretString): RequestHandler {
  const expected = digest(apiKey.reveal());
  return (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      res.set('WWW-Authenticate', 'Bearer');
      return sendError(res, 401, 'unauthorized', 'A valid API key is required (Authorization: Bearer <API_KEY>)');
    }
    next();
  };
}
