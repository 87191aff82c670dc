/** Everything one running sandbox is made of, handed to routes and flows. */
import type { Logger } from 'pino';
import type { SandboxConfig } from '../config/sandbox';
import type { Clock } from './clock/clock';
import type { Scheduler } from './clock/scheduler';
import type { DeliveryEngine } from './delivery';
import type { FaultController } from './faults';
import type { Random } from './random';
import type { SandboxState } from './state';

export interface SandboxContext {
  config: SandboxConfig;
  logger: Logger;
  clock: Clock;
  scheduler: Scheduler;
  random: Random;
  faults: FaultController;
  delivery: DeliveryEngine;
  state: SandboxState;
}
