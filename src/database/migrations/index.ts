/**
 * Every migration, in order. A migration is never edited once released: a change to the tables is a new file here,
 * named by its number, run by `npm run db:migrate` (and by the deployment's migration job) before any process.
 */
import type { Migration } from 'kysely';
import * as ledger from './0001-ledger';
import * as reconcilePages from './0002-reconcile-pages';
import * as incidents from './0003-incidents';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-ledger': ledger,
  '0002-reconcile-pages': reconcilePages,
  '0003-incidents': incidents,
};
