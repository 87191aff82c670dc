/**
 * What a router counts on the worker's metrics: each hop's result and each resource given up
 * (src/domain/metrics.ts). Not commands: the SDK records them on the worker running the task, never while replaying,
 * so a scrape of the worker costs Temporal nothing.
 */
import { metricMeter } from '@temporalio/workflow';
import {
  ROUTER_GIVE_UPS_HELP,
  ROUTER_GIVE_UPS_METRIC,
  ROUTER_HOPS_HELP,
  ROUTER_HOPS_METRIC,
  type RouterGiveUpReason,
  type RouterHopResult,
} from '../../../src/domain/metrics';

export function countHop(result: RouterHopResult): void {
  metricMeter.createCounter(ROUTER_HOPS_METRIC, 'hops', ROUTER_HOPS_HELP).add(1, { result });
}

export function countGiveUp(reason: RouterGiveUpReason): void {
  metricMeter.createCounter(ROUTER_GIVE_UPS_METRIC, 'resources', ROUTER_GIVE_UPS_HELP).add(1, { reason });
}
