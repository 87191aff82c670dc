/**
 * Idempotency keys of the HTTP API, Stripe's rules, one row per key and route: the first request runs; a repeat of
 * the same request gets the first answer again; the same key with another request is refused; a repeat while the
 * first still runs is refused too, until the first goes silent past its lease (its API died mid-request). An answer
 * that says "try again" is released, so a retry runs afresh. A new key's claim is one statement; any other step is
 * one transaction holding the key's row.
 */
import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Ledger } from '../database/connection';
import { preparedStatement, runPrepared } from '../database/prepared';
import type { LedgerSchema } from '../database/schema';

/**
 * How long a claim may go unanswered before another request may take it over: longer than any request of the API
 * runs (each of its Temporal calls has a 5 s deadline, and a request makes at most a few).
 */
export const IDEMPOTENCY_CLAIM_LEASE_MS = 60_000;

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export type ClaimAnswer =
  | { outcome: 'execute' }
  | { outcome: 'in-progress' }
  | { outcome: 'mismatch' }
  | { outcome: 'replay'; answer: StoredAnswer };

export interface IdempotentRequest {
  /** The operation, e.g. startOnRamp. */
  route: string;
  key: string;
  /** This request's own ID: it records or releases the key it claimed. */
  requestId: string;
}

/** A digest keeps any key a bounded value (keys are up to 255 characters of the client's choosing). */
const digestOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('base64url');

/** When a claim made now lapses: the new key's claim and the take-over of an abandoned one both write it. */
const CLAIM_LEASE_END = `now() + ${IDEMPOTENCY_CLAIM_LEASE_MS} * interval '1 millisecond'`;

/** A new key's claim, the common case: `$1` route, `$2` key digest, `$3` fingerprint, `$4` claim, `$5` retention ms. */
const CLAIM_NEW_KEY = preparedStatement<{ claim_id: string }>(
  'claim_new_idempotency_key',
  `insert into idempotency_keys (route, key_digest, fingerprint, claim_id, claimed_until, expires_at)
  values ($1, $2, $3, $4, ${CLAIM_LEASE_END}, now() + $5 * interval '1 millisecond')
  on conflict (route, key_digest) do nothing
  returning claim_id`,
);

/**
 * The answer of the request that holds the key: `$1` route, `$2` key digest, `$3` claim, `$4` status, `$5` body,
 * `$6` retention ms.
 */
const RECORD_ANSWER = preparedStatement(
  'record_idempotent_answer',
  `update idempotency_keys set answer_status = $4, answer_body = $5, expires_at = now() + $6 * interval '1 millisecond'
  where route = $1 and key_digest = $2 and claim_id = $3 and answer_status is null`,
);

export async function claimIdempotencyKey(
  db: Ledger,
  request: IdempotentRequest & { fingerprint: string; retentionMs: number },
): Promise<ClaimAnswer> {
  const key = { route: request.route, key_digest: digestOf(request.key) };
  const lease = sql.raw<string>(CLAIM_LEASE_END);
  const claim = {
    fingerprint: request.fingerprint,
    claim_id: request.requestId,
    claimed_until: lease,
    expires_at: sql<string>`now() + ${request.retentionMs} * interval '1 millisecond'`,
  };
  const insertClaim = async (into: Ledger | Transaction<LedgerSchema>) =>
    (
      await runPrepared(into, CLAIM_NEW_KEY, [
        key.route,
        key.key_digest,
        request.fingerprint,
        request.requestId,
        request.retentionMs,
      ])
    ).rows.length > 0;
  // A new key, the common case, is one statement.
  if (await insertClaim(db)) return { outcome: 'execute' };
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('idempotency_keys')
      .select([
        'fingerprint',
        'answer_status',
        'answer_body',
        sql<boolean>`claimed_until > now()`.as('held'),
        sql<boolean>`expires_at < now()`.as('expired'),
      ])
      .where('route', '=', key.route)
      .where('key_digest', '=', key.key_digest)
      .forUpdate()
      .executeTakeFirst();
    // Released or purged meanwhile: the key is fresh again, unless another request claimed it first.
    if (!row) return { outcome: (await insertClaim(trx)) ? 'execute' : 'in-progress' };
    const takeOver = async (fresh: boolean) => {
      await trx
        .updateTable('idempotency_keys')
        .set(
          fresh
            ? { ...claim, answer_status: null, answer_body: null }
            : { claim_id: claim.claim_id, claimed_until: lease },
        )
        .where('route', '=', key.route)
        .where('key_digest', '=', key.key_digest)
        .execute();
      return { outcome: 'execute' } as const;
    };
    // A key whose answer (or abandoned claim) is past retention is as good as new.
    if (row.expired) return takeOver(true);
    if (row.fingerprint !== request.fingerprint) return { outcome: 'mismatch' };
    if (row.answer_status !== null)
      return { outcome: 'replay', answer: { status: row.answer_status, body: row.answer_body } };
    if (row.held) return { outcome: 'in-progress' };
    // Its claimant went silent past the lease: this request runs.
    return takeOver(false);
  });
}

/** Keeps the answer of the request that holds the key (a claimant that lost its lease changes nothing). */
export async function recordIdempotentAnswer(
  db: Ledger,
  request: IdempotentRequest & { status: number; body: unknown; retentionMs: number },
): Promise<void> {
  await runPrepared(db, RECORD_ANSWER, [
    request.route,
    digestOf(request.key),
    request.requestId,
    request.status,
    JSON.stringify(request.body ?? null),
    request.retentionMs,
  ]);
}

/** The claimant ran nothing worth keeping (invalid input, or a failure to retry): the key is fresh again. */
export async function releaseIdempotencyKey(db: Ledger, request: IdempotentRequest): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('route', '=', request.route)
    .where('key_digest', '=', digestOf(request.key))
    .where('claim_id', '=', request.requestId)
    .where('answer_status', 'is', null)
    .execute();
}

/** Forgets keys past their retention, a bounded batch at a time; answers how many. */
export async function purgeExpiredKeys(db: Ledger, batch = 1_000): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at < now() limit ${batch}
    )
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
