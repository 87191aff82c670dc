/**
 * The page token of a list read from the ledger: a digest of the list's filter, then where the previous page
 * stopped. A token of another filter, or no token of ours at all, names no page of this list: NotFoundError (404),
 * the answer for any reference to something that does not exist, since no schema can tell a token we issued from
 * one we did not.
 */
import { createHash } from 'node:crypto';
import { NotFoundError } from './errors';

/** What a page token can look like (base64url); anything else is refused before it is decoded. */
export const PAGE_TOKEN = /^[A-Za-z0-9_-]{1,8192}$/;
export const PAGE_NOT_FOUND =
  'No page of this list has this pageToken (a token of another filter, or not one of ours)';

const FILTER_DIGEST_BYTES = 8;

const filterDigest = (filter: unknown) =>
  createHash('sha256').update(JSON.stringify(filter)).digest().subarray(0, FILTER_DIGEST_BYTES);

/** The token of the page after `cursor`, for this filter. */
export function sealPageToken(cursor: Record<string, string>, filter: unknown): string {
  return Buffer.concat([filterDigest(filter), Buffer.from(JSON.stringify(cursor))]).toString('base64url');
}

/** Where the previous page stopped, or NotFoundError when the token was not sealed for this filter. */
export function openPageToken<K extends string>(
  pageToken: string,
  filter: unknown,
  keys: readonly K[],
): Record<K, string> {
  const bytes = Buffer.from(pageToken, 'base64url');
  if (
    bytes.length <= FILTER_DIGEST_BYTES ||
    !bytes.subarray(0, FILTER_DIGEST_BYTES).equals(filterDigest(filter))
  )
    throw new NotFoundError(PAGE_NOT_FOUND);
  let cursor: unknown;
  try {
    cursor = JSON.parse(bytes.subarray(FILTER_DIGEST_BYTES).toString('utf8'));
  } catch {
    throw new NotFoundError(PAGE_NOT_FOUND);
  }
  const record = cursor as Record<string, unknown>;
  if (!record || typeof record !== 'object' || keys.some((key) => typeof record[key] !== 'string'))
    throw new NotFoundError(PAGE_NOT_FOUND);
  return record as Record<K, string>;
}
