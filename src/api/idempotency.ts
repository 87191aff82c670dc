/**
 * `Idempotency-Key` on every POST, with Stripe's semantics: the first answer to a key is kept (IDEMPOTENCY_RETENTION)
 * per key and route; a repeat of the same request gets it again with `Idempotent-Replayed: true`; the same key with
 * another request is 422; a repeat while the first still runs is 409. An answer that changed nothing (400 invalid
 * input) or says "try again" (5xx) is not kept: the key is released and a retry runs afresh, which every POST of the
 * API allows. The key lives in the ledger (src/ledger/idempotency.ts), never in this process, so it holds across
 * restarts and replicas.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Ledger } from '../database/connection';
import {
  type ClaimAnswer,
  claimIdempotencyKey,
  type IdempotentRequest,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
} from '../ledger/idempotency';
import { ApiError } from './errors';
import type { TemporalCall } from './types';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Stripe's limit; printable ASCII without spaces, so no HTTP parser trims or folds it into another key. */
export const IDEMPOTENCY_KEY_PATTERN = /^[!-~]{1,255}$/;

/** Where the keys live: the ledger in a running API, a stub in the routes' unit specs. */
export interface IdempotencyStore {
  claim(request: IdempotentRequest & { fingerprint: string; retentionMs: number }): Promise<ClaimAnswer>;
  record(request: IdempotentRequest & { status: number; body: unknown; retentionMs: number }): Promise<void>;
  release(request: IdempotentRequest): Promise<void>;
}

export const ledgerIdempotency = (ledger: Ledger): IdempotencyStore => ({
  claim: (request) => claimIdempotencyKey(ledger, request),
  record: (request) => recordIdempotentAnswer(ledger, request),
  release: (request) => releaseIdempotencyKey(ledger, request),
});

export interface IdempotencyOptions {
  store: IdempotencyStore;
  call: TemporalCall;
  retentionMs: number;
  logger: Logger;
}

/** JSON with sorted keys: the same request body however its keys are ordered or spaced. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Kept answers: what the request did, success or refusal; not invalid input (nothing ran) nor a failure to retry. */
const isKept = (status: number) => status < 500 && status !== 400;

/** The Idempotency-Key handling of one POST route, by its name (its operationId): keys are kept per route. */
export function idempotency(options: IdempotencyOptions): (route: string) => RequestHandler {
  const { store, call, logger, retentionMs } = options;
  return (route) => async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key))
      throw new ApiError(400, 'invalid_input', `Invalid ${IDEMPOTENCY_KEY_HEADER}`, [
        `${IDEMPOTENCY_KEY_HEADER}: must be 1-255 printable ASCII characters without spaces`,
      ]);
    const request = { route, key, requestId: randomUUID() };
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.path}\n${canonicalJson(req.body)}`)
      .digest('base64url');
    const claimed = await call(() => store.claim({ ...request, fingerprint, retentionMs }));
    switch (claimed.outcome) {
      case 'replay':
        res.set(REPLAYED_HEADER, 'true');
        res.status(claimed.answer.status).json(claimed.answer.body);
        return;
      case 'in-progress':
        throw new ApiError(
          409,
          'idempotency_key_in_use',
          `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry once it has answered`,
        );
      case 'mismatch':
        throw new ApiError(
          422,
          'idempotency_key_reused',
          `This ${IDEMPOTENCY_KEY_HEADER} was used with another request; use a new key for a new request`,
        );
      case 'execute':
        break;
    }
    // The answer goes out once the key holds it (or is released), so a repeat never finds it half done.
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      const status = res.statusCode;
      void call(() =>
        isKept(status) ? store.record({ ...request, status, body, retentionMs }) : store.release(request),
      )
        .catch((error: unknown) => {
          // The answer still goes out; the key stays claimed until its lease ends, then a repeat runs afresh.
          logger.warn({ err: { name: (error as Error).name }, route }, 'idempotency key not settled');
        })
        .finally(() => send(body));
      return res;
    };
    next();
  };
}
