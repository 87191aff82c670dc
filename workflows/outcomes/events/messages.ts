/** The messages of an outcome event's record. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { DeliveryNews, EventRecord } from './types';

/** Sent (with start) by the delivery activity at each attempt, refusal and end. */
export const deliveryNewsSignal = defineSignal<[DeliveryNews]>('outcomeEventDelivery');
export const eventRecordQuery = defineQuery<EventRecord>('outcomeEventRecord');
