/**
 * Plain data types shared by workflows, activities and the typed client. Workflow-safe: no imports with side effects.
 */

/**
 * Every duration a workflow uses, in milliseconds. Workflows cannot read the environment, so the starter loads
 * these from configuration (src/config/timings.ts) and passes them in the workflow input; a continued-as-new run
 * carries them on. Tests shorten time by passing smaller values.
 */
export interface WorkflowTimings {
  /** Start-to-close of one operator call attempt. */
  activityStartToCloseMs: number;
  /** Schedule-to-close of an operator call, retries included. */
  activityScheduleToCloseMs: number;
  /** First retry delay of an operator call; doubles up to the maximum. */
  activityRetryInitialMs: number;
  activityRetryMaximumMs: number;
  /** Heartbeat timeout of activities that heartbeat (wallet creation). */
  activityHeartbeatMs: number;
  /** Deadline of each step of an on-ramp or off-ramp process before it polls / is flagged. */
  stepDeadlineMs: number;
  /** First poll delay when an expected event is late; doubles up to the maximum. */
  pollInitialMs: number;
  pollMaximumMs: number;
  /** How long a process keeps waiting (polling) after it is flagged stuck before it gives up. */
  processTimeoutMs: number;
  /** Quote validity assumed when the operator's expires_at is missing (25 s per spec). */
  quoteTtlMs: number;
}

export interface AddressOnNetwork {
  network: string;
  address: string;
}

export interface DepositWallet {
  walletId: string;
  externalUserId: string;
  addresses: AddressOnNetwork[];
  createdAt: string;
}

/** A wallet the operator created for this user that is not the one shown (see docs/architecture.md). */
export interface OrphanWallet {
  walletId: string;
  recordedAt: string;
  reason: string;
}

export interface EndUserInput {
  endUserId: string;
  timings: WorkflowTimings;
  /** Carried over by continue-as-new. */
  carried?: EndUserCarriedState;
}

export interface EndUserCarriedState {
  wallet?: DepositWallet;
  orphanWallets: OrphanWallet[];
  createdAt: string;
  runs: number;
}

export interface EndUserState extends EndUserCarriedState {
  endUserId: string;
  walletStatus: 'none' | 'creating' | 'ready' | 'failed';
  /** The operator's answer as journaled by the creation activity, before the activity completed. */
  journaledWallet?: WalletCreatedSignal;
  lastError?: string;
}

export interface WalletCreatedSignal {
  walletId: string;
  externalUserId: string;
  attempt: number;
}
