/**
 * Moved: the operator's open points live in src/domain/vocabulary.ts (networks, chains, currencies, transaction
 * kinds) and src/domain/operator-routes.ts (routes, headers, page sizes, error statuses), where configuration, the
 * sandbox and the workflows can import them without the operator client; the account's wallet labels are in
 * src/domain/ids.ts. This module re-exports them for the importers not yet moved.
 */
import { ACCOUNT_WALLET_LABELS } from '../domain/ids';

export {
  CSRF_HEADER_NAMES,
  DEFAULT_PAGE_SIZE,
  DEFAULT_ROUTES,
  DELIVERY_IS_SIGNED,
  ERROR_STATUSES,
  MAX_PAGE_SIZE,
  type RouteName,
  type Routes,
} from '../domain/operator-routes';
export {
  CHAINS,
  type ChainCode,
  FIAT_CURRENCIES,
  NETWORKS,
  TOKENS,
  TRANSACTION_KINDS,
} from '../domain/vocabulary';

export const MASTER_WALLET_EXTERNAL_ID = ACCOUNT_WALLET_LABELS.master;
export const GAS_WALLET_EXTERNAL_ID = ACCOUNT_WALLET_LABELS.gas;
