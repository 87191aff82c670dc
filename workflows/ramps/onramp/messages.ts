/** The messages of an on-ramp. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { OrderSnapshot, TransactionSnapshot } from '../shared/snapshots';
import type { OnRampAttribution, OnRampState } from './types';

export const onRampOrderSignal = defineSignal<[OrderSnapshot]>('onRampOrder');
export const onRampTransactionSignal = defineSignal<[TransactionSnapshot]>('onRampTransaction');
/** The client's startOnRamp: names the end user (and the quote shown) of a reference, before or after its first event. */
export const onRampAttributionSignal = defineSignal<[OnRampAttribution]>('onRampAttribution');
export const onRampStateQuery = defineQuery<OnRampState>('onRampState');
