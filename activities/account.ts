/** Moved: activities/account-setup/activities.ts. */
export { ACCOUNT_WALLET_LABELS as ACCOUNT_WALLET_EXTERNAL_IDS } from '../src/domain/ids';
export { createAccountWalletActivities as createAccountActivities } from './account-setup/activities';
