/**
 * Temporal's floor for the shapes of two targets: workflows that do only what any process of that shape must do,
 * so that the bench can say what this server and machine allow a process of that shape at all. Bench-only: the
 * floor worker (bench/floor/worker.ts) bundles this file alone, never beside the product's workflows.
 */
import { condition, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { FloorActivities, FloorWallet } from './activities';
import { floorEventSignal, floorSeenQuery, floorWalletUpdate } from './messages';

const ACTIVITY_OPTIONS = { startToCloseTimeout: '30s' } as const;
const scheduled = proxyActivities<FloorActivities>(ACTIVITY_OPTIONS);
const local = proxyLocalActivities<FloorActivities>(ACTIVITY_OPTIONS);

export interface FloorWalletInput {
  label: string;
  /** Create the wallet in a local activity (inside the workflow task) instead of a scheduled one. */
  local: boolean;
}

/**
 * A deposit wallet and nothing else: the update waits for the one activity that creates it, and the workflow stays
 * open as an end user's does. No journal, no search attributes, no outcome event.
 */
export async function floorWalletWorkflow(input: FloorWalletInput): Promise<void> {
  const state: { wallet?: FloorWallet } = {};
  setHandler(floorWalletUpdate, async () => {
    await condition(() => state.wallet !== undefined);
    return state.wallet!;
  });
  state.wallet = await (input.local ? local : scheduled).floorCreateWallet(input.label);
  await condition(() => false);
}

/** The owner's side of a process alone: it applies `expected` distinct signals as they come, then closes. */
export async function floorProcessWorkflow(expected: number): Promise<number> {
  const seen = new Set<number>();
  setHandler(floorEventSignal, (index) => {
    seen.add(index);
  });
  setHandler(floorSeenQuery, () => seen.size);
  await condition(() => seen.size >= expected);
  return seen.size;
}
