/**
 * Our Prometheus metrics (the Temporal SDK's own worker metrics are served by the Runtime: src/temporal/runtime.ts).
 *
 * - ramp_webhook_deliveries_total{kind, answer}: deliveries the receiver answered, by recipient kind
 *   (transaction | order | other) and HTTP status. Counted in the receiver process (resets on restart).
 * - ramp_processes{direction, status}: off-ramp / on-ramp processes by RampStatus, counted from Temporal
 *   visibility at scrape time (cached for `visibilityCacheMs`), so every receiver/API replica reports the same
 *   numbers, nothing is lost on restart, and terminal statuses (settled, failed, expired, timed-out) are the
 *   processes ended by outcome. Bounded by the namespace's retention for closed workflows.
 * - ramp_processes_started{direction}: every process of that direction in visibility (open and closed).
 * - ramp_alerts_open: open alert incidents, when an `openAlerts` source is wired.
 */
import type { Client } from '@temporalio/client';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Logger } from 'pino';

export const OFF_RAMP_STATUSES = [
  'awaiting-deposit-confirmation',
  'awaiting-sweep',
  'awaiting-sweep-confirmation',
  'awaiting-settlement',
  'stuck',
  'settled',
  'failed',
  'timed-out',
] as const;
export const ON_RAMP_STATUSES = ['awaiting-order', 'awaiting-execution', 'awaiting-deposit', 'awaiting-confirmation', 'settled', 'expired', 'failed', 'timed-out'] as const;

const KINDS: Record<string, string> = { transactions: 'transaction', orders: 'order' };

export interface RampMetricsOptions {
  /** Enables ramp_processes / ramp_processes_started (visibility counts at scrape time). */
  temporal?: Client;
  /** Enables ramp_alerts_open. */
  openAlerts?: () => Promise<number>;
  visibilityCacheMs?: number;
  logger?: Logger;
}

export class RampMetrics {
  readonly registry = new Registry();
  readonly deliveries: Counter<'kind' | 'answer'>;
  readonly #options: RampMetricsOptions;
  #visibility: { at: number; counts: Promise<Array<{ direction: string; status: string | null; count: number }>> } | null = null;

  constructor(options: RampMetricsOptions = {}) {
    this.#options = options;
    // The process's own gauges (CPU, memory, event-loop lag, handles, GC) beside ours, under their standard names.
    collectDefaultMetrics({ register: this.registry });
    this.deliveries = new Counter({
      name: 'ramp_webhook_deliveries_total',
      help: 'Webhook deliveries answered by the receiver, by recipient kind and HTTP status',
      labelNames: ['kind', 'answer'],
      registers: [this.registry],
    });
    if (options.temporal) {
      const processes = new Gauge({
        name: 'ramp_processes',
        help: 'Ramp processes by direction and RampStatus (Temporal visibility, at scrape time)',
        labelNames: ['direction', 'status'],
        registers: [this.registry],
        collect: async () => {
          for (const entry of await this.#visibilityCounts()) if (entry.status !== null) processes.set({ direction: entry.direction, status: entry.status }, entry.count);
        },
      });
      const started = new Gauge({
        name: 'ramp_processes_started',
        help: 'Ramp processes started, open and closed, by direction (Temporal visibility, at scrape time)',
        labelNames: ['direction'],
        registers: [this.registry],
        collect: async () => {
          for (const entry of await this.#visibilityCounts()) if (entry.status === null) started.set({ direction: entry.direction }, entry.count);
        },
      });
    }
    if (options.openAlerts) {
      const openAlerts = options.openAlerts;
      const gauge = new Gauge({
        name: 'ramp_alerts_open',
        help: 'Alert incidents currently open',
        registers: [this.registry],
        collect: async () => {
          gauge.set(await openAlerts());
        },
      });
    }
  }

  /** Express middleware for the receiver: counts every answer under /webhooks/<kind>/... (the secret is never a label). */
  deliveryCounter() {
    return (req: Request, res: Response, next: NextFunction) => {
      const match = /^\/webhooks\/([^/]+)\//.exec(req.path);
      if (req.method === 'POST' && match) {
        const kind = Object.hasOwn(KINDS, match[1]!) ? KINDS[match[1]!]! : 'other';
        res.once('finish', () => this.deliveries.inc({ kind, answer: String(res.statusCode) }));
      }
      next();
    };
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  #visibilityCounts() {
    const temporal = this.#options.temporal!;
    const cacheMs = this.#options.visibilityCacheMs ?? 15_000;
    if (this.#visibility && Date.now() - this.#visibility.at < cacheMs) return this.#visibility.counts;
    const queries: Array<{ direction: string; status: string | null }> = [
      ...(['off-ramp', 'on-ramp'] as const).map((direction) => ({ direction, status: null })),
      ...OFF_RAMP_STATUSES.map((status) => ({ direction: 'off-ramp', status })),
      ...ON_RAMP_STATUSES.map((status) => ({ direction: 'on-ramp', status })),
    ];
    const counts = Promise.all(
      queries.map(async (query) => {
        const clause = `RampDirection = '${query.direction}'${query.status ? ` AND RampStatus = '${query.status}'` : ''}`;
        const { count } = await temporal.workflow.count(clause);
        return { ...query, count };
      }),
    ).catch((error: unknown) => {
      this.#visibility = null;
      this.#options.logger?.warn({ err: { name: (error as Error).name } }, 'Could not count processes in Temporal visibility');
      return [];
    });
    this.#visibility = { at: Date.now(), counts };
    return counts;
  }
}
