/** The messages of the webhook router. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { RouterState, WebhookEventSignal } from './types';

export const webhookEventSignal = defineSignal<[WebhookEventSignal]>('webhookEvent');
export const routerStateQuery = defineQuery<RouterState>('routerState');
