/** The messages of the unknown-events store. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { UnknownEventRecord } from './types';

export const unknownEventSignal = defineSignal<[UnknownEventRecord]>('unknownEvent');
export const unknownEventsQuery = defineQuery<UnknownEventRecord[]>('unknownEvents');
