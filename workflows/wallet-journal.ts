/** Moved: the wallet-creation journal lives with its owner process, workflows/end-user/wallet-journal.ts. */
export * from './end-user/wallet-journal';
