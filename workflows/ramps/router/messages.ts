/** The messages of the webhook router. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { RouterDeliveries, RouterState } from './types';

export const webhookDeliveriesSignal = defineSignal<[RouterDeliveries]>('webhookDeliveries');
export const routerStateQuery = defineQuery<RouterState>('routerState');
