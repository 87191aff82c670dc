/**
 * The shape of the sandbox's fault injection, set in code at start (startSandbox's `faults`) or at run time
 * (`POST /sandbox/v1/faults`). Every field is optional; an empty object means "no faults".
 * Milliseconds given here are wall-clock milliseconds: they are NOT multiplied by the time scale.
 */
import { z } from 'zod';
import { DEFAULT_ROUTES, type RouteName } from '../domain/operator-profile';

const probability = z.number().min(0).max(1);
const routeName = z.enum(Object.keys(DEFAULT_ROUTES) as [RouteName, ...RouteName[]]);

export const deliveryFaultsSchema = z.strictObject({
  /** Probability that a delivery is never sent (recorded as `dropped`, lost for good). */
  drop: probability.default(0),
  /** Deliver only the first event of each resource (per recipient); drop every later one. */
  dropAfterFirst: z.boolean().default(false),
  /** Deliver only the first N deliveries routed since start or reset (all recipients together); drop every later one. */
  deliverOnlyFirst: z.number().int().min(0).optional(),
  /** Probability that a delivery is sent twice. */
  duplicate: probability.default(0),
  /** Probability that a delivery's first attempt waits `delayMs` more. */
  delay: probability.default(0),
  delayMs: z.number().int().min(0).max(600_000).default(0),
  /** Probability that a delivery is held back and sent right after the next delivery to the same recipient. */
  reorder: probability.default(0),
  /** A held delivery is released after this long when no other delivery comes. */
  reorderMaxHoldMs: z.number().int().min(0).max(600_000).default(1000),
  /** When present, the delivery faults apply only to these event types. */
  eventTypes: z.array(z.string().min(1)).optional(),
});
export type DeliveryFaults = z.output<typeof deliveryFaultsSchema>;

export const apiFaultsSchema = z.strictObject({
  /** Probability that a call fails with `failStatus`. */
  fail: probability.default(0),
  /** The next N matching calls fail for sure (counted down), whatever `fail` says. */
  failNext: z.number().int().min(0).default(0),
  failStatus: z.number().int().min(500).max(599).default(503),
  /** Extra latency of every matching call. */
  slowMs: z.number().int().min(0).max(600_000).default(0),
  /** When present, the API faults apply only to these routes (names of DEFAULT_ROUTES). */
  routes: z.array(routeName).optional(),
});
export type ApiFaults = z.output<typeof apiFaultsSchema>;

export const faultsConfigSchema = z.strictObject({
  deliveries: deliveryFaultsSchema.default(deliveryFaultsSchema.parse({})),
  api: apiFaultsSchema.default(apiFaultsSchema.parse({})),
  /** When set, tokens issued from now on live this long instead of the configured lifetime. */
  tokenLifetimeMs: z.number().int().min(0).optional(),
});
export type FaultsConfig = z.output<typeof faultsConfigSchema>;
export type FaultsConfigInput = z.input<typeof faultsConfigSchema>;

/** The body of `POST /sandbox/v1/faults`: a new fault set, plus one-shot actions. */
export const faultsRequestSchema = faultsConfigSchema.extend({
  /** One-shot: every token issued so far expires now. */
  expireTokensNow: z.boolean().optional(),
});

export const NO_FAULTS: FaultsConfig = faultsConfigSchema.parse({});
