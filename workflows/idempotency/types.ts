/** The shapes of an idempotency key's workflow (idempotency/<route>/<key digest>). Workflow-safe. */

export interface IdempotencyKeyInput {
  /** How long the first answer is kept once recorded (IDEMPOTENCY_RETENTION). */
  retentionMs: number;
}

/** The answer the first request got, replayed to every repeat of it. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  recordedAt: string;
}

export interface ClaimRequest {
  /** A digest of the request (method, path and body): the same key with another request is refused. */
  fingerprint: string;
  /** The request that claims the key; it records or releases it. */
  requestId: string;
  /** How long a claim may stay unanswered before another request may take it over (its API died mid-request). */
  leaseMs: number;
}

export type ClaimAnswer =
  | { outcome: 'execute' }
  | { outcome: 'in-progress' }
  | { outcome: 'mismatch' }
  | { outcome: 'replay'; answer: StoredAnswer };

export interface RecordAnswerRequest {
  requestId: string;
  status: number;
  body: unknown;
}

export interface ReleaseRequest {
  requestId: string;
}

export interface IdempotencyKeyState {
  /** The request the key was first used with; absent until claimed, and again once released. */
  fingerprint?: string;
  claim?: { requestId: string; claimedAt: string; leaseMs: number };
  answer?: StoredAnswer;
}
