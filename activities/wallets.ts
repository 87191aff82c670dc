/** Moved: activities/end-user/activities.ts (deposit wallet) and activities/shared/wallets.ts (addresses). */
export { depositWalletLabel as depositWalletExternalId } from '../src/domain/ids';
export { type CreatedWallet, createEndUserActivities as createWalletActivities } from './end-user/activities';
