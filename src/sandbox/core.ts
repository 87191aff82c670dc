/**
 * The sandbox operator without its HTTP face: state, clock, scheduler, faults, delivery engine and flows.
 * server.ts puts the express app in front of it.
 */
import type { SandboxConfig } from '../config/sandbox';
import { Clock } from './clock/clock';
import { Scheduler } from './clock/scheduler';
import type { SandboxContext } from './context';
import { DeliveryEngine } from './delivery';
import { FaultController } from './faults';
import { OffRampFlows } from './flows/offramp';
import { createSandboxLogger } from './logger';
import { Random } from './random';
import { SandboxState } from './state';

export interface SandboxCore {
  ctx: SandboxContext;
  offramp: OffRampFlows;
  /** Forgets every resource, event, delivery and call; cancels pending flows and retries; clears faults and clock offset. */
  reset(): void;
  close(): void;
}

export function createSandboxCore(config: SandboxConfig): SandboxCore {
  const logger = createSandboxLogger(config.logLevel);
  const clock = new Clock();
  const scheduler = new Scheduler(config.timeScale, logger);
  const random = new Random(config.seed);
  const faults = new FaultController(config.faults, config.seed);
  const state = new SandboxState();
  const delivery = new DeliveryEngine({
    state,
    scheduler,
    faults,
    random,
    clock,
    logger,
    retryDelaysMs: config.deliveryDelaysMs,
    attemptTimeoutMs: config.deliveryTimeoutMs,
    concurrency: config.deliveryConcurrency,
    insecureTls: config.insecureTls,
    extraHeaders: config.deliveryHeaders,
  });
  const ctx: SandboxContext = { config, logger, clock, scheduler, random, faults, delivery, state };
  const offramp = new OffRampFlows(ctx);
  return {
    ctx,
    offramp,
    reset() {
      scheduler.clear();
      delivery.reset();
      offramp.reset();
      state.clear();
      clock.reset();
      faults.set(config.faults);
    },
    close() {
      scheduler.close();
      delivery.close();
    },
  };
}
