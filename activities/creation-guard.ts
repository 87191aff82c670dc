/** Moved: activities/end-user/wallet-creation.ts. */
export {
  assertTimeToCreate,
  type CreatedWallet,
  createWalletJournaled,
  type JournaledCreation,
  journalInTime,
} from './end-user/wallet-creation';
