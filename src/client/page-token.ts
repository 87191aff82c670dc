/**
 * The page token of a list read from visibility: a digest of the visibility query, then Temporal's own token. A
 * token of another filter, or no token of ours at all, is refused here instead of reaching Temporal. Such a token
 * is well formed but names no page of this list: NotFoundError (404), the answer for any reference to something
 * that does not exist, since no schema can tell a token we issued from one we did not.
 */
import { createHash } from 'node:crypto';
import { NotFoundError } from './errors';

/** What a page token can look like (base64url); anything else is refused before it is decoded. */
export const PAGE_TOKEN = /^[A-Za-z0-9_-]{1,8192}$/;
export const PAGE_NOT_FOUND =
  'No page of this list has this pageToken (a token of another filter, or not one of ours)';

const QUERY_DIGEST_BYTES = 8;

const queryDigest = (query: string) =>
  createHash('sha256').update(query).digest().subarray(0, QUERY_DIGEST_BYTES);

export function sealPageToken(visibilityToken: Uint8Array, query: string): string {
  return Buffer.concat([queryDigest(query), visibilityToken]).toString('base64url');
}

/** Temporal's token inside ours, or NotFoundError when ours was not sealed for this query. */
export function openPageToken(pageToken: string, query: string): Buffer {
  const bytes = Buffer.from(pageToken, 'base64url');
  if (bytes.length <= QUERY_DIGEST_BYTES || !bytes.subarray(0, QUERY_DIGEST_BYTES).equals(queryDigest(query)))
    throw new NotFoundError(PAGE_NOT_FOUND);
  return bytes.subarray(QUERY_DIGEST_BYTES);
}
