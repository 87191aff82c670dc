/** The messages of the webhook routers. The name strings are part of recorded histories: they never change. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type {
  RouterState,
  ShardEventSignal,
  ShardEventsSignal,
  ShardRouterState,
  WebhookEventSignal,
} from './types';

export const webhookEventSignal = defineSignal<[WebhookEventSignal]>('webhookEvent');
export const routerStateQuery = defineQuery<RouterState>('routerState');

export const shardEventSignal = defineSignal<[ShardEventSignal]>('shardWebhookEvent');
export const shardEventsSignal = defineSignal<[ShardEventsSignal]>('shardWebhookEvents');
export const shardStateQuery = defineQuery<ShardRouterState>('shardRouterState');
