/**
 * Fault injection: the current fault set and the seeded decisions taken from it. Every decision consumes
 * the same number of PRNG draws whatever the outcome, so a run with the same seed, configuration and
 * sequence of events takes the same decisions.
 */
import type { RouteName } from '../domain/operator-profile';
import { faultsConfigSchema, type FaultsConfig, type FaultsConfigInput } from '../config/sandbox-faults';
import { Random } from './random';

export interface DeliveryDecision {
  drop: boolean;
  dropAfterFirst: boolean;
  deliverOnlyFirst: number | undefined;
  duplicate: boolean;
  delayMs: number;
  reorder: boolean;
  reorderMaxHoldMs: number;
}

export interface ApiDecision {
  failStatus: number | null;
  slowMs: number;
}

/** Fault decisions use their own PRNG stream so identifiers do not shift when faults change. */
const FAULT_STREAM = 0x9e3779b9;

export class FaultController {
  private config: FaultsConfig;
  private failNextRemaining: number;
  private random: Random;

  constructor(
    initial: FaultsConfig,
    private readonly seed: number,
  ) {
    this.config = initial;
    this.failNextRemaining = initial.api.failNext;
    this.random = new Random((seed ^ FAULT_STREAM) >>> 0);
  }

  /** The current fault set (failNext shows the calls still to fail). */
  get current(): FaultsConfig {
    return { ...this.config, api: { ...this.config.api, failNext: this.failNextRemaining } };
  }

  /** Replaces the fault set (validated) and restarts the decision stream from the seed. */
  set(input: FaultsConfigInput | FaultsConfig): FaultsConfig {
    this.config = faultsConfigSchema.parse(input);
    this.failNextRemaining = this.config.api.failNext;
    this.random = new Random((this.seed ^ FAULT_STREAM) >>> 0);
    return this.current;
  }

  get tokenLifetimeMs(): number | undefined {
    return this.config.tokenLifetimeMs;
  }

  deliveryDecision(eventType: string): DeliveryDecision {
    const faults = this.config.deliveries;
    const drop = this.random.chance(faults.drop);
    const duplicate = this.random.chance(faults.duplicate);
    const delay = this.random.chance(faults.delay);
    const reorder = this.random.chance(faults.reorder);
    const applies = faults.eventTypes === undefined || faults.eventTypes.includes(eventType);
    if (!applies)
      return {
        drop: false,
        dropAfterFirst: false,
        deliverOnlyFirst: undefined,
        duplicate: false,
        delayMs: 0,
        reorder: false,
        reorderMaxHoldMs: 0,
      };
    return {
      drop,
      dropAfterFirst: faults.dropAfterFirst,
      deliverOnlyFirst: faults.deliverOnlyFirst,
      duplicate,
      delayMs: delay ? faults.delayMs : 0,
      reorder,
      reorderMaxHoldMs: faults.reorderMaxHoldMs,
    };
  }

  apiDecision(route: RouteName | null): ApiDecision {
    const faults = this.config.api;
    const applies = route !== null && (faults.routes === undefined || faults.routes.includes(route));
    if (!applies) return { failStatus: null, slowMs: 0 };
    const failByChance = this.random.chance(faults.fail);
    let fail = failByChance;
    if (this.failNextRemaining > 0) {
      this.failNextRemaining -= 1;
      fail = true;
    }
    return { failStatus: fail ? faults.failStatus : null, slowMs: faults.slowMs };
  }
}
