/** Metric facts shared by the workflows that record them and the worker's runtime that serves them. */

/** The settle time of a ramp process, recorded by the workflow on the worker's SDK metrics (a histogram, seconds). */
export const SETTLE_TIME_METRIC = 'ramp_settle_time';

/** Its buckets: a ramp settles in minutes to hours (the SDK's default buckets are for milliseconds). */
export const SETTLE_TIME_BUCKETS_S = [30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 43200, 86400];
