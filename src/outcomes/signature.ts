/**
 * Standard Webhooks signatures (standardwebhooks.com): HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`
 * with the secret's decoded bytes, sent as `v1,<base64>`; several secrets give several space-separated signatures,
 * so a client can rotate its secret without missing a delivery.
 */
import { createHmac } from 'node:crypto';
import type { SecretString } from '../secrets/secret-string';

const SECRET_PREFIX = 'whsec_';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signatureHeaders(
  webhookId: string,
  body: string,
  secrets: readonly SecretString[],
  at: Date,
): SignedHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const content = `${webhookId}.${timestamp}.${body}`;
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.reveal().slice(SECRET_PREFIX.length), 'base64');
    return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
  });
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}
