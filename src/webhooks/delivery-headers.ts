/**
 * Which headers the operator's deliveries carry: the spec does not say, nor whether deliveries are signed. The
 * receiver keeps the header names (never their values) of the first deliveries of each kind, for /readyz's details
 * and `npm run operator:probe`, and warns once per kind when a name looks like a signature: then the operator may
 * sign its deliveries, and verifying them would be a second credential beside the recipient URL's secret.
 */
import type { Logger } from 'pino';

/** Deliveries of one kind whose header names are kept; later ones are very likely alike. */
export const DELIVERIES_KEPT_PER_KIND = 5;
/** Bounds on what one delivery can make the receiver keep. */
const MAX_NAMES = 40;
const MAX_NAME_LENGTH = 60;
/** Kinds kept: the spec's four and `unknown` fit; whatever a caller names a kind, the map stays small. */
const MAX_KINDS = 10;

/** A name that usually carries a signature, a digest or a credential. */
const SIGNATURE_LIKE = /signature|(^|-)sig(-|$)|hmac|digest|^authorization$/i;

export const looksLikeSignature = (name: string): boolean => SIGNATURE_LIKE.test(name);

export interface DeliveryHeadersOfKind {
  /** Deliveries whose names were kept (at most DELIVERIES_KEPT_PER_KIND). */
  deliveries: number;
  headerNames: string[];
  signatureLike: string[];
}

export class DeliveryHeaderLog {
  readonly #kinds = new Map<string, { deliveries: number; names: Set<string> }>();

  constructor(private readonly logger?: Logger) {}

  /** Keeps the names of one delivery of `kind` (an event type, or `unknown` for a kind the spec does not list). */
  record(kind: string, headerNames: readonly string[]): void {
    let seen = this.#kinds.get(kind);
    if (!seen) {
      if (this.#kinds.size >= MAX_KINDS) return;
      seen = { deliveries: 0, names: new Set() };
      this.#kinds.set(kind, seen);
    }
    if (seen.deliveries >= DELIVERIES_KEPT_PER_KIND) return;
    seen.deliveries += 1;
    const before = [...seen.names].filter(looksLikeSignature);
    for (const name of headerNames.slice(0, MAX_NAMES))
      if (/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
        seen.names.add(name.toLowerCase().slice(0, MAX_NAME_LENGTH));
    const signatureLike = [...seen.names].filter(looksLikeSignature);
    if (signatureLike.length > before.length)
      this.logger?.warn(
        { kind, headers: signatureLike },
        'Deliveries carry a header that looks like a signature: the operator may sign them (docs/operator.md)',
      );
  }

  report(): Record<string, DeliveryHeadersOfKind> {
    return Object.fromEntries(
      [...this.#kinds.entries()].map(([kind, seen]) => {
        const headerNames = [...seen.names].sort();
        return [
          kind,
          { deliveries: seen.deliveries, headerNames, signatureLike: headerNames.filter(looksLikeSignature) },
        ];
      }),
    );
  }
}
