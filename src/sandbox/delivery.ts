/**
 * The webhook delivery engine. An event goes to every recipient of its kind (transaction events to
 * transaction recipients, order events to order recipients) as an HTTPS POST of `{ data: { eventType,
 * payload } }`. Only HTTP 200 confirms; anything else (another status, 204 included, a timeout, a refused
 * connection) is a failure, retried after the configured delays (scaled), at most 5 attempts in total,
 * then given up for good.
 *
 * Ordering: the first attempts of the deliveries to one recipient are started in the order of the events, at
 * most `concurrency` at a time (1 by default: each after the previous first attempt has finished); an attempt
 * gives up its place when it finishes or after ORDER_WAIT_CAP_MS, so a slow receiver does not stall the others.
 * Retries run independently. Fault injection (drop, duplicate, delay, reorder) is decided once per event and
 * recipient.
 */
import https from 'node:https';
import type { ClientRequest } from 'node:http';
import type { Logger } from 'pino';
import {
  ORDER_EVENT_TYPES,
  TRANSACTION_EVENT_TYPES,
  type KnownEventType,
  type RecipientKind,
} from '../operator/schemas';
import type { Clock } from './clock/clock';
import type { Scheduler } from './clock/scheduler';
import type { FaultController } from './faults';
import type { Random } from './random';
import type { RecipientRecord, SandboxState } from './state';

/** How long the next first attempt to a recipient waits for the previous one at most (wall clock). */
export const ORDER_WAIT_CAP_MS = 2000;

export interface SandboxEvent {
  id: string;
  eventType: KnownEventType;
  kind: RecipientKind;
  resourceId: string;
  payload: Record<string, string>;
  time: string;
}

export type AttemptOutcome = 'delivered' | 'failed' | 'gave-up' | 'dropped' | 'canceled';

/** One line of the delivery log (`GET /sandbox/v1/deliveries`). */
export interface DeliveryAttemptRecord {
  deliveryId: string;
  eventId: string;
  eventType: KnownEventType;
  resourceId: string;
  payload: Record<string, string>;
  recipientId: string;
  recipientKind: RecipientKind;
  url: string;
  /** 1..5; 0 for a delivery dropped by a fault (never sent). */
  attempt: number;
  time: string;
  outcome: AttemptOutcome;
  /** True on the record that ends the delivery (delivered, gave up, dropped, canceled). */
  final: boolean;
  status?: number;
  error?: string;
  durationMs?: number;
  /** Set on the second copy of a duplicated delivery: the id of the original. */
  duplicateOf?: string;
  /** Set when the delivery was held back by the reorder fault or delayed by the delay fault. */
  fault?: 'reorder' | 'delay' | 'drop' | 'drop-after-first' | 'drop-after-budget';
}

interface DeliveryJob {
  id: string;
  generation: number;
  event: SandboxEvent;
  recipientId: string;
  recipientKind: RecipientKind;
  url: string;
  attempt: number;
  duplicateOf?: string;
  fault?: DeliveryAttemptRecord['fault'];
}

export interface DeliveryEngineOptions {
  state: SandboxState;
  scheduler: Scheduler;
  faults: FaultController;
  random: Random;
  clock: Clock;
  logger: Logger;
  retryDelaysMs: number[];
  attemptTimeoutMs: number;
  /** First attempts in flight at once to one recipient. */
  concurrency: number;
  insecureTls: boolean;
  /** Headers each delivery carries beside the content type and the sandbox's own diagnostics. */
  extraHeaders?: Record<string, string>;
}

/** One recipient's first attempts: those waiting their turn, in event order, and how many are in flight. */
interface RecipientLane {
  waiting: DeliveryJob[];
  inFlight: number;
}

export class DeliveryEngine {
  readonly events: SandboxEvent[] = [];
  readonly attempts: DeliveryAttemptRecord[] = [];
  private readonly lanes = new Map<string, RecipientLane>();
  private readonly held = new Map<string, DeliveryJob>();
  private readonly seenResources = new Set<string>();
  /** Deliveries routed while a `deliverOnlyFirst` budget is set, counted from start or reset. */
  private routedUnderBudget = 0;
  private readonly inFlight = new Set<ClientRequest>();
  private readonly agent: https.Agent;
  private readonly unfinished = new Set<string>();
  private generation = 0;
  private closed = false;

  constructor(private readonly options: DeliveryEngineOptions) {
    this.agent = new https.Agent({ keepAlive: true, rejectUnauthorized: !options.insecureTls });
  }

  /** At most 5 attempts in total: one first attempt plus one per configured retry delay. */
  get maxAttempts(): number {
    return this.options.retryDelaysMs.length + 1;
  }

  /** Deliveries not ended yet (held, delayed, queued, in flight or waiting for a retry). */
  get active(): number {
    return this.unfinished.size;
  }

  /** Records an event and starts its deliveries; answers the event. */
  publish(eventType: KnownEventType, payload: Record<string, string> & { id: string }): SandboxEvent {
    const kind: RecipientKind = TRANSACTION_EVENT_TYPES.includes(eventType) ? 'transaction' : 'order';
    if (kind === 'order' && !ORDER_EVENT_TYPES.includes(eventType))
      throw new Error(`unknown event type ${eventType}`);
    const event: SandboxEvent = {
      id: this.options.random.uuid(),
      eventType,
      kind,
      resourceId: payload.id,
      payload,
      time: this.options.clock.iso(),
    };
    this.events.push(event);
    this.options.logger.debug({ eventType, resourceId: payload.id }, 'event published');
    for (const recipient of this.options.state.recipients[kind].values()) this.route(event, recipient);
    return event;
  }

  /** Forgets every event and delivery; deliveries still running are abandoned. */
  reset(): void {
    this.generation += 1;
    this.events.length = 0;
    this.attempts.length = 0;
    this.lanes.clear();
    this.held.clear();
    this.seenResources.clear();
    this.routedUnderBudget = 0;
    this.unfinished.clear();
    for (const request of this.inFlight) request.destroy(new Error('sandbox reset'));
    this.inFlight.clear();
  }

  close(): void {
    this.closed = true;
    this.reset();
    this.agent.destroy();
  }

  private route(event: SandboxEvent, recipient: RecipientRecord): void {
    const decision = this.options.faults.deliveryDecision(event.eventType);
    const job = this.newJob(event, recipient);
    if (decision.dropAfterFirst) {
      const key = `${recipient.id}/${event.resourceId}`;
      if (this.seenResources.has(key)) return this.recordDropped(job, 'drop-after-first');
      this.seenResources.add(key);
    }
    if (decision.deliverOnlyFirst !== undefined) {
      if (this.routedUnderBudget >= decision.deliverOnlyFirst)
        return this.recordDropped(job, 'drop-after-budget');
      this.routedUnderBudget += 1;
    }
    if (decision.drop) return this.recordDropped(job, 'drop');
    const copy = decision.duplicate ? { ...this.newJob(event, recipient), duplicateOf: job.id } : null;
    const go = (): void => {
      this.release(job, decision.reorder, decision.reorderMaxHoldMs);
      if (copy) this.release(copy, false, 0);
    };
    if (decision.delayMs > 0) {
      job.fault = 'delay';
      this.options.scheduler.afterReal(decision.delayMs, go);
    } else {
      go();
    }
  }

  private newJob(event: SandboxEvent, recipient: RecipientRecord): DeliveryJob {
    const id = this.options.random.uuid();
    this.unfinished.add(id);
    return {
      id,
      generation: this.generation,
      event,
      recipientId: recipient.id,
      recipientKind: recipient.kind,
      url: recipient.url,
      attempt: 0,
    };
  }

  /** Sends a job now, or holds it until the next delivery to the same recipient (reorder fault). */
  private release(job: DeliveryJob, reorder: boolean, maxHoldMs: number): void {
    if (job.generation !== this.generation) return;
    const held = this.held.get(job.recipientId);
    if (reorder && !held) {
      job.fault = 'reorder';
      this.held.set(job.recipientId, job);
      this.options.scheduler.afterReal(maxHoldMs, () => {
        if (this.held.get(job.recipientId) !== job) return;
        this.held.delete(job.recipientId);
        this.enqueue(job);
      });
      return;
    }
    this.enqueue(job);
    if (held) {
      this.held.delete(job.recipientId);
      this.enqueue(held);
    }
  }

  private enqueue(job: DeliveryJob): void {
    let lane = this.lanes.get(job.recipientId);
    if (!lane) {
      lane = { waiting: [], inFlight: 0 };
      this.lanes.set(job.recipientId, lane);
    }
    lane.waiting.push(job);
    this.startWaiting(lane);
  }

  /** Starts the lane's next first attempts, in order, while it has room. */
  private startWaiting(lane: RecipientLane): void {
    while (lane.inFlight < this.options.concurrency && lane.waiting.length > 0) {
      const job = lane.waiting.shift()!;
      lane.inFlight += 1;
      // A lane dropped by reset() keeps counting its own attempts down; nothing new joins it.
      void this.capped(this.attempt(job)).then(() => {
        lane.inFlight -= 1;
        this.startWaiting(lane);
      });
    }
  }

  private capped(work: Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ORDER_WAIT_CAP_MS);
      void work.finally(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async attempt(job: DeliveryJob): Promise<void> {
    if (this.closed || job.generation !== this.generation) return;
    if (!this.options.state.recipients[job.recipientKind].has(job.recipientId)) {
      this.record(job, { outcome: 'canceled', final: true, error: 'recipient deleted' });
      return;
    }
    job.attempt += 1;
    const started = Date.now();
    let status: number | undefined;
    let error: string | undefined;
    try {
      status = await this.post(job);
    } catch (failure) {
      error = (failure as Error).message;
    }
    if (this.closed || job.generation !== this.generation) return;
    const durationMs = Date.now() - started;
    const delivered = status === 200;
    const last = job.attempt >= this.maxAttempts;
    const outcome: AttemptOutcome = delivered ? 'delivered' : last ? 'gave-up' : 'failed';
    this.record(job, { outcome, final: delivered || last, status, error, durationMs });
    if (delivered) return;
    if (last) {
      this.options.logger.warn(
        {
          eventType: job.event.eventType,
          resourceId: job.event.resourceId,
          recipientId: job.recipientId,
          attempts: job.attempt,
        },
        'webhook delivery given up',
      );
      return;
    }
    const delay = this.options.retryDelaysMs[job.attempt - 1] ?? 0;
    this.options.scheduler.after(delay, () => this.attempt(job));
  }

  private post(job: DeliveryJob): Promise<number> {
    const body = JSON.stringify({ data: { eventType: job.event.eventType, payload: job.event.payload } });
    return new Promise((resolve, reject) => {
      const url = new URL(job.url);
      if (url.protocol !== 'https:') return reject(new Error('recipient URL is not https'));
      const timeoutMs = this.options.attemptTimeoutMs;
      const request = https.request(url, {
        method: 'POST',
        agent: this.agent,
        headers: {
          ...this.options.extraHeaders,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: 'application/json',
          'user-agent': 'ramp-sandbox-operator/1',
          // Sandbox-only diagnostics; the real operator's delivery headers are not known (spec §6).
          'x-sandbox-delivery-id': job.id,
          'x-sandbox-attempt': String(job.attempt),
        },
      });
      this.inFlight.add(request);
      const timer = setTimeout(
        () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)),
        timeoutMs,
      );
      const finish = (): void => {
        clearTimeout(timer);
        this.inFlight.delete(request);
      };
      request.on('error', (failure) => {
        finish();
        reject(failure);
      });
      request.on('response', (response) => {
        finish();
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.end(body);
    });
  }

  private recordDropped(job: DeliveryJob, fault: 'drop' | 'drop-after-first' | 'drop-after-budget'): void {
    this.record({ ...job, fault }, { outcome: 'dropped', final: true });
  }

  private record(
    job: DeliveryJob,
    result: { outcome: AttemptOutcome; final: boolean; status?: number; error?: string; durationMs?: number },
  ): void {
    const record: DeliveryAttemptRecord = {
      deliveryId: job.id,
      eventId: job.event.id,
      eventType: job.event.eventType,
      resourceId: job.event.resourceId,
      payload: job.event.payload,
      recipientId: job.recipientId,
      recipientKind: job.recipientKind,
      url: job.url,
      attempt: job.attempt,
      time: this.options.clock.iso(),
      outcome: result.outcome,
      final: result.final,
    };
    if (result.status !== undefined) record.status = result.status;
    if (result.error !== undefined) record.error = result.error;
    if (result.durationMs !== undefined) record.durationMs = result.durationMs;
    if (job.duplicateOf !== undefined) record.duplicateOf = job.duplicateOf;
    if (job.fault !== undefined) record.fault = job.fault;
    this.attempts.push(record);
    if (result.final) this.unfinished.delete(job.id);
  }
}
