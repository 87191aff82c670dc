/**
 * Our Prometheus metrics (the Temporal SDK's own worker metrics are served by the Runtime: src/temporal/runtime.ts).
 * A scrape costs Temporal nothing: every figure is the process's own counter or a read of the ledger.
 *
 * - ramp_webhook_deliveries_total{kind, answer}: deliveries the receiver answered, by recipient kind
 *   (transaction | order | other) and HTTP status. Counted in the receiver process (resets on restart).
 * - ramp_processes{direction, status}: off-ramps / on-ramps by status, counted in the ledger, so every
 *   receiver/API replica reports the same numbers, nothing is lost on restart, and terminal statuses (settled,
 *   failed, expired, timed-out) are the ramps ended by outcome.
 * - ramp_processes_started{direction}: every ramp of that direction in the ledger (open and ended).
 * - ramp_outcome_events{delivery}: outcome events waiting to be delivered (pending) and given up (failed).
 * - ramp_incidents_open{kind, acknowledged}: open incidents by kind, and whether someone on call acknowledged them
 *   (the ledger's incident store).
 * - ramp_database_up: 1 when the scrape could read the ledger, 0 when it could not (the rest is still served).
 * - ramp_worker_version_workflows{build_id, state}: workflows running on each version of the workers' Worker
 *   Deployment (current, ramping, draining, drained, inactive), when a `workerDeployment` is named (the API does): a
 *   release shows as the new version growing while the old one drains to 0 (docs/deployment.md, "Releasing a change").
 *   Only Temporal knows it, so it is read in the background every VERSION_FIGURES_EVERY_MS, whatever the scrapes: a
 *   release moves in minutes to days, and one read a minute per API replica costs the same whether Prometheus scrapes
 *   once or a hundred times.
 *
 * The worker's own figures (task slots, cache, schedule-to-start latencies, the ramps' settle time and the routers'
 * hops, recorded by the workflows: src/domain/metrics.ts) are the Temporal SDK's, served at
 * TEMPORAL_METRICS_BIND_ADDRESS.
 *
 * The ledger's figures (one grouped count each of ramps, outcome events and open incidents) are read by one scrape at
 * a time (concurrent scrapes share that read) and kept for `cacheTtlMs` (METRICS_CACHE_TTL_MS).
 */
import type { Client } from '@temporalio/client';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Ledger } from '../database/connection';
import { countOpenIncidents } from '../ledger/incidents';
import { countOutcomeEvents, type OutcomeEventCounts } from '../ledger/outcome-events';
import { countRampsByStatus } from '../ledger/ramps';
import { RESOURCE_KIND_OF_PATH, type RampDirection } from '../domain/vocabulary';
import { withTemporalDeadline } from '../http/errors';
import { deploymentReport, type VersionReport } from '../temporal/worker-deployment';
import { OFF_RAMP_STATUSES } from '../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../workflows/ramps/onramp/types';
import { ALERT_KINDS } from '../../workflows/operations/alerts/types';

// Defined once, by the processes that own them; re-exported for the metrics' readers.
export { OFF_RAMP_STATUSES } from '../../workflows/ramps/offramp/types';
export { ON_RAMP_STATUSES } from '../../workflows/ramps/onramp/types';

/** Every status of each direction (a direction without its list does not type-check). */
const STATUSES_OF: Record<RampDirection, readonly string[]> = {
  'off-ramp': OFF_RAMP_STATUSES,
  'on-ramp': ON_RAMP_STATUSES,
};
const DIRECTIONS = Object.keys(STATUSES_OF) as RampDirection[];

/**
 * How long figures read from the ledger are reused: a common scrape interval, so a figure is at most one scrape old
 * and several scrapers share one read.
 */
export const METRICS_CACHE_TTL_MS = 15_000;

/** How often the worker versions' figures are read from Temporal, in the background, whatever the scrapes. */
export const VERSION_FIGURES_EVERY_MS = 60_000;

/** How often they are read while the deployment has no version yet (no worker of it polled). */
const VERSION_FIGURES_FIRST_MS = 5_000;

/** Deadline of one background read of the worker versions' figures. */
const VERSION_READ_TIMEOUT_MS = 10_000;

export interface RampMetricsOptions {
  /** Enables the ledger's figures: ramps, outcome events, open incidents, ramp_database_up. */
  ledger?: Ledger;
  /** With `workerDeployment`, enables ramp_worker_version_workflows (read in the background). */
  temporal?: Client;
  /** The workers' Worker Deployment (the task queue). */
  workerDeployment?: string;
  /** How long the ledger's figures are reused; default METRICS_CACHE_TTL_MS (tests shorten it). */
  cacheTtlMs?: number;
  logger?: Logger;
}

interface LedgerFigures {
  /** Null when the ledger could not be read (ramp_database_up 0). */
  counts: Array<{ direction: string; status: string | null; count: number }> | null;
  outcomes: OutcomeEventCounts | null;
  incidents: Array<{ kind: string; acknowledged: boolean; count: number }> | null;
}

const QUERIES: Array<{ direction: RampDirection; status: string | null }> = [
  ...DIRECTIONS.map((direction) => ({ direction, status: null })),
  ...DIRECTIONS.flatMap((direction) => STATUSES_OF[direction].map((status) => ({ direction, status }))),
];

export class RampMetrics {
  readonly registry = new Registry();
  readonly deliveries: Counter<'kind' | 'answer'>;
  readonly directForwards: Counter<'kind' | 'result'>;
  readonly #options: RampMetricsOptions;
  readonly #processes: Gauge<'direction' | 'status'> | undefined;
  readonly #started: Gauge<'direction'> | undefined;
  readonly #databaseUp: Gauge | undefined;
  readonly #outcomeEvents: Gauge<'delivery'> | undefined;
  readonly #incidentsOpen: Gauge<'kind' | 'acknowledged'> | undefined;
  readonly #versionWorkflows: Gauge<'build_id' | 'state'> | undefined;
  #cached: { at: number; figures: LedgerFigures } | null = null;
  #reading: Promise<LedgerFigures> | null = null;
  #versions: VersionReport[] | null = null;
  #versionTimer: NodeJS.Timeout | undefined;
  #versionRead: Promise<void> | undefined;
  #closed = false;

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
    this.directForwards = new Counter({
      name: 'ramp_webhook_direct_forwards_total',
      help: 'Deliveries the receiver tried to forward to their process itself, by resource kind and result: forwarded, or why it handed them to a router (failed, timed-out, unroutable, process-ended)',
      labelNames: ['kind', 'result'],
      registers: [this.registry],
    });
    if (options.ledger) {
      this.#processes = new Gauge({
        name: 'ramp_processes',
        help: 'Ramps by direction and status, as the ledger holds them',
        labelNames: ['direction', 'status'],
        registers: [this.registry],
      });
      this.#started = new Gauge({
        name: 'ramp_processes_started',
        help: 'Ramps started, open and ended, by direction (the ledger)',
        labelNames: ['direction'],
        registers: [this.registry],
      });
      this.#databaseUp = new Gauge({
        name: 'ramp_database_up',
        help: 'Whether the last scrape could read the ledger (PostgreSQL) within its deadline: 1 or 0',
        registers: [this.registry],
      });
      this.#outcomeEvents = new Gauge({
        name: 'ramp_outcome_events',
        help: 'Outcome events waiting to be delivered (pending) and given up (failed), in the ledger',
        labelNames: ['delivery'],
        registers: [this.registry],
      });
      this.#incidentsOpen = new Gauge({
        name: 'ramp_incidents_open',
        help: 'Open incidents of the incident store, by kind and whether someone on call acknowledged them',
        labelNames: ['kind', 'acknowledged'],
        registers: [this.registry],
      });
    }
    if (options.temporal && options.workerDeployment) {
      this.#versionWorkflows = new Gauge({
        name: 'ramp_worker_version_workflows',
        help: "Workflows running on each version of the workers' Worker Deployment, by build ID and state (current, ramping, draining, drained, inactive), read every minute",
        labelNames: ['build_id', 'state'],
        registers: [this.registry],
      });
      this.#readVersions(options.temporal, options.workerDeployment);
    }
  }

  /** Stops the background read of the version figures. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#versionTimer);
  }

  /** The background read of the version figures in progress, if any (tests wait for it). */
  get versionRead(): Promise<void> | undefined {
    return this.#versionRead;
  }

  /** Express middleware for the receiver: counts every answer under /webhooks/<kind>/... (the secret is never a label). */
  deliveryCounter() {
    return (req: Request, res: Response, next: NextFunction) => {
      const match = /^\/webhooks\/([^/]+)\//.exec(req.path);
      if (req.method === 'POST' && match) {
        const kind = Object.hasOwn(RESOURCE_KIND_OF_PATH, match[1]!)
          ? RESOURCE_KIND_OF_PATH[match[1]!]!
          : 'other';
        res.once('finish', () => this.deliveries.inc({ kind, answer: String(res.statusCode) }));
      }
      next();
    };
  }

  /** The Prometheus text: the process's counters, the ledger's figures and the last version figures read. */
  async render(): Promise<{ contentType: string; body: string }> {
    if (this.#options.ledger) {
      const figures = await this.#ledgerFigures();
      this.#databaseUp?.set(figures.counts === null ? 0 : 1);
      const { outcomes } = figures;
      if (outcomes)
        for (const delivery of ['pending', 'failed'] as const)
          this.#outcomeEvents?.set({ delivery }, outcomes[delivery]);
      for (const entry of figures.counts ?? []) {
        if (entry.status === null) this.#started?.set({ direction: entry.direction }, entry.count);
        else this.#processes?.set({ direction: entry.direction, status: entry.status }, entry.count);
      }
      if (figures.incidents !== null && this.#incidentsOpen) {
        // Every kind, both ways, so that an incident closed shows as 0 rather than as a series that vanished.
        for (const kind of ALERT_KINDS)
          for (const acknowledged of [true, false])
            this.#incidentsOpen.set(
              { kind, acknowledged: String(acknowledged) },
              figures.incidents.find((row) => row.kind === kind && row.acknowledged === acknowledged)
                ?.count ?? 0,
            );
      }
    }
    if (this.#versions !== null && this.#versionWorkflows) {
      // Only the versions Temporal still lists: a removed one's series ends rather than stays at its last value.
      this.#versionWorkflows.reset();
      for (const version of this.#versions)
        this.#versionWorkflows.set({ build_id: version.buildId, state: version.state }, version.running);
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** The cached figures while fresh; else the read in flight, or a new one that later scrapes share. */
  #ledgerFigures(): Promise<LedgerFigures> {
    const ttlMs = this.#options.cacheTtlMs ?? METRICS_CACHE_TTL_MS;
    if (this.#cached && Date.now() - this.#cached.at < ttlMs) return Promise.resolve(this.#cached.figures);
    this.#reading ??= this.#readLedgerFigures()
      .then((figures) => {
        this.#cached = { at: Date.now(), figures };
        return figures;
      })
      .finally(() => {
        this.#reading = null;
      });
    return this.#reading;
  }

  async #readLedgerFigures(): Promise<LedgerFigures> {
    const ledger = this.#options.ledger!;
    // The ledger away is a figure of its own (ramp_database_up 0), not a failed scrape.
    const read = <T>(figure: (db: Ledger) => Promise<T>) =>
      withTemporalDeadline(LEDGER_READ_TIMEOUT_MS, () => figure(ledger)).catch(() => null);
    const [counts, outcomes, incidents] = await Promise.all([
      read(rampCounts),
      read(countOutcomeEvents),
      read(countOpenIncidents),
    ]);
    return { counts, outcomes, incidents };
  }

  /** Reads the version figures now and again every interval; a failed read keeps the last figures. */
  #readVersions(temporal: Client, deployment: string): void {
    if (this.#closed) return;
    this.#versionRead = withTemporalDeadline(
      VERSION_READ_TIMEOUT_MS,
      () => deploymentReport(temporal, deployment),
      temporal,
    )
      .then((report) => {
        this.#versions = report.versions;
      })
      .catch((error: unknown) => {
        this.#options.logger?.warn(
          { err: { name: (error as Error).name } },
          'Could not read the worker versions from Temporal; the metrics keep the last figures',
        );
      })
      .finally(() => {
        if (this.#closed) return;
        // Before its first worker polls, the deployment has no version: looked at again soon, as an API that starts
        // beside its workers would otherwise show none for a whole interval.
        const nextMs = this.#versions?.length ? VERSION_FIGURES_EVERY_MS : VERSION_FIGURES_FIRST_MS;
        this.#versionTimer = setTimeout(() => this.#readVersions(temporal, deployment), nextMs);
        this.#versionTimer.unref();
      });
  }
}

/** How long a scrape waits for the ledger before it reports it down. */
const LEDGER_READ_TIMEOUT_MS = 2_000;

/** Ramps by direction and status (every status of each direction, zeros included), and started per direction. */
async function rampCounts(ledger: Ledger): Promise<LedgerFigures['counts']> {
  const rows = await countRampsByStatus(ledger);
  const of = (direction: string, status: string | null) =>
    rows
      .filter((row) => row.direction === direction && (status === null || row.status === status))
      .reduce((sum, row) => sum + row.count, 0);
  return QUERIES.map((query) => ({ ...query, count: of(query.direction, query.status) }));
}
