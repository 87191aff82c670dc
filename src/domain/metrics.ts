/** Metric facts shared by the workflows that record them and the worker's runtime that serves them. */

/** The settle time of a ramp process, recorded by the workflow on the worker's SDK metrics (a histogram, seconds). */
export const SETTLE_TIME_METRIC = 'ramp_settle_time';

/** Its buckets: a ramp settles in minutes to hours (the SDK's default buckets are for milliseconds). */
export const SETTLE_TIME_BUCKETS_S = [30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 43200, 86400];

/**
 * A router's hops, recorded by the router workflow on the worker's SDK metrics (a counter, never while replaying), by
 * `result`: `routed` (the resource re-read and taken care of), `failed` (the read or forward failed: the lane retries),
 * `not-found` (the operator does not know the resource yet, or at all).
 */
export const ROUTER_HOPS_METRIC = 'ramp_router_hops_total';
export const ROUTER_HOPS_HELP =
  "Routers' hops by result: routed, failed (retried), not-found (retried until given up)";
export const ROUTER_HOP_RESULTS = ['routed', 'failed', 'not-found'] as const;
export type RouterHopResult = (typeof ROUTER_HOP_RESULTS)[number];

/**
 * Resources a router gave up on, their deliveries dropped (a counter by `reason`): `unknown-resource` (the operator
 * never knew it: a forged or misrouted delivery), `failed` (its read or forward failed for the whole process timeout).
 */
export const ROUTER_GIVE_UPS_METRIC = 'ramp_router_resources_given_up_total';
export const ROUTER_GIVE_UPS_HELP =
  'Resources a router gave up on, their deliveries dropped, by reason: unknown-resource, failed';
export const ROUTER_GIVE_UP_REASONS = ['unknown-resource', 'failed'] as const;
export type RouterGiveUpReason = (typeof ROUTER_GIVE_UP_REASONS)[number];
