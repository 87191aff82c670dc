/**
 * Moved: each process's types live in its folder (end-user/, account-setup/, quote/), the wallet journal's in
 * wallet-journal.ts, the shared vocabulary and WorkflowTimings in src/domain. Re-exported for the importers not
 * yet moved.
 */
export type { WorkflowTimings } from '../src/domain/timings';
export type {
  AccountWalletRole,
  AddressOnNetwork,
  RampDirection as QuoteDirection,
  ResourceKind as RecipientKindName,
} from '../src/domain/vocabulary';
export type { OrphanWallet, UnconfirmedCreation, WalletCreatedSignal } from './wallet-journal';
export type { DepositWallet, EndUserCarriedState, EndUserInput, EndUserState } from './end-user/types';
export type {
  AccountRecipient,
  AccountSetupCarriedState,
  AccountSetupInput,
  AccountSetupResult,
  AccountSetupState,
  AccountWallet,
} from './account-setup/types';
export type { QuoteRequestInput, QuoteResult, QuoteWorkflowInput } from './quote/types';
