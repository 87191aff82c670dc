import type { RequestHandler } from 'express';
import { sameSecret } from '../secrets/compare';
import type { SecretString } from '../secrets/secret-string';
import { sendError } from './errors';

/** `Authorization: Bearer <API_KEY>`, compared in constant time (src/secrets/compare.ts). */
export function requireApiKey(apiKey: SecretString): RequestHandler {
  return (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !sameSecret(match[1]!, apiKey.reveal())) {
      res.set('WWW-Authenticate', 'Bearer');
      return sendError(
        res,
        401,
        'unauthorized',
        'A valid API key is required (Authorization: Bearer <API_KEY>)',
      );
    }
    next();
  };
}
