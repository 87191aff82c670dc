/** ops/gas-monitor: the gas wallet's checks and the monitor's input and result. */
import type { WorkflowTimings } from '../../../src/domain/timings';
import { NETWORKS } from '../../../src/domain/vocabulary';

/** The gas wallet's native balance on one network against its minimum (the checkGasWallet activity). */
export interface GasCheck {
  gasWalletId: string | null;
  network: string;
  asset: string;
  balance: string | null;
  minimum: string;
  shortfall: boolean;
  checkedAt: string;
  error?: string;
}

export interface GasMonitorInput {
  timings: WorkflowTimings;
  /** Networks whose native balance is checked; default Ethereum and Tron. */
  networks?: string[];
}

export interface GasAssessment extends GasCheck {
  low: boolean;
  reason: 'below-minimum' | 'no-address' | null;
}

export interface GasMonitorResult {
  checkedAt: string;
  networks: Array<GasAssessment & { alert: 'raised' | 'already-open' | 'resolved' | 'none' | 'skipped' }>;
}

/** The networks checked when the input names none, in this order (the monitor assesses one after the other). */
export const DEFAULT_GAS_NETWORKS: string[] = [NETWORKS.ethereum, NETWORKS.tron];
