/** The messages of an off-ramp. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { OffRampState, OffRampTransactionSignal } from './types';

export const offRampTransactionSignal = defineSignal<[OffRampTransactionSignal]>('offRampTransaction');
export const offRampStateQuery = defineQuery<OffRampState>('offRampState');
