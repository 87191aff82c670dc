/** The messages of a bulk redelivery. The name strings are part of recorded histories: they never change. */
import { defineQuery } from '@temporalio/workflow';
import type { RedeliveryJobProgress } from './types';

export const redeliveryJobProgressQuery = defineQuery<RedeliveryJobProgress>('redeliveryJobProgress');
