/**
 * Our Prometheus metrics (the Temporal SDK's own worker metrics are served by the Runtime: src/temporal/runtime.ts).
 *
 * - ramp_webhook_deliveries_total{kind, answer}: deliveries the receiver answered, by recipient kind
 *   (transaction | order | other) and HTTP status. Counted in the receiver process (resets on restart).
 * - ramp_processes{direction, status}: off-ramps / on-ramps by status, counted in the ledger, so every
 *   receiver/API replica reports the same numbers, nothing is lost on restart, and terminal statuses (settled,
 *   failed, expired, timed-out) are the ramps ended by outcome.
 * - ramp_processes_started{direction}: every ramp of that direction in the ledger (open and ended).
 * - ramp_outcome_events{delivery}: outcome events waiting to be delivered (pending) and given up (failed).
 * - ramp_database_up: 1 when the scrape could read the ledger, 0 when it could not (the rest is still served).
 * - ramp_incidents_open{kind, acknowledged}: open incidents of the incident store by kind, and whether someone on call
 *   acknowledged them, when an `openIncidents` source is wired (the API does).
 * - ramp_routers_unknown_resource: resources the routers gave up on because the operator answered 404 for them (a
 *   forged or misrouted webhook), from visibility: the running routers' memos.
 * - ramp_router_deliveries_waiting: deliveries the running routers (the durable fallback) hold and have not routed
 *   yet, asked of each router (a query; one whose worker is down cannot answer and counts as none).
 * - ramp_worker_version_workflows{build_id, state}: workflows running on each version of the workers' Worker
 *   Deployment (current, ramping, draining, drained, inactive), when a `workerDeployment` is named (the API does): a
 *   release shows as the new version growing while the old one drains to 0 (docs/deployment.md, "Releasing a change").
 *
 * The worker's own figures (task slots, cache, schedule-to-start latencies, and the ramps' settle time recorded by
 * the ramp workflows, `ramp_settle_time`) are the Temporal SDK's, served at TEMPORAL_METRICS_BIND_ADDRESS.
 *
 * Scrapes are cheap: the figures read (one grouped count in the ledger, one list of the running routers and a query
 * to each, one alerts query, the deployment's description and two counts per version) are read by one scrape at a
 * time (concurrent scrapes share that read), kept for
 * `cacheTtlMs` (METRICS_CACHE_TTL_MS), and bounded by `timeoutMs` (HTTP_TEMPORAL_TIMEOUT_MS): past it render() fails
 * with TemporalDeadlineError (the endpoint answers 503).
 */
import type { Client } from '@temporalio/client';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Ledger } from '../database/connection';
import { WORKFLOW_TYPES } from '../domain/ids';
import { countOutcomeEvents, type OutcomeEventCounts } from '../ledger/outcome-events';
import { countRampsByStatus } from '../ledger/ramps';
import { RESOURCE_KIND_OF_PATH, type RampDirection } from '../domain/vocabulary';
import { HTTP_TEMPORAL_TIMEOUT_MS, withTemporalDeadline } from '../http/errors';
import { deploymentReport, type VersionReport } from '../temporal/worker-deployment';
import { OFF_RAMP_STATUSES } from '../../workflows/ramps/offramp/types';
import { ON_RAMP_STATUSES } from '../../workflows/ramps/onramp/types';
import { routerUnknownResources } from '../../workflows/ramps/router/state';
import { routerStateQuery } from '../../workflows/ramps/router/messages';
import { ALERT_KINDS, type Incident } from '../../workflows/operations/alerts/types';

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
 * How long figures read from Temporal are reused: a common scrape interval, so a figure is at most one scrape old and
 * several scrapers share one read.
 */
export const METRICS_CACHE_TTL_MS = 15_000;

export interface RampMetricsOptions {
  /** Enables ramp_processes / ramp_processes_started (counted in the ledger). */
  ledger?: Ledger;
  /** Enables the routers' figures (their memos and a query to each). */
  temporal?: Client;
  /** Enables ramp_incidents_open: the open incidents, their kind and whether someone acknowledged them. */
  openIncidents?: () => Promise<ReadonlyArray<Pick<Incident, 'kind' | 'acknowledged'>>>;
  /** With `temporal`, enables ramp_worker_version_workflows: the Worker Deployment's name (the task queue). */
  workerDeployment?: string;
  /** How long figures read from Temporal are reused; default METRICS_CACHE_TTL_MS (tests shorten it). */
  cacheTtlMs?: number;
  /** Deadline of one read of those figures; default HTTP_TEMPORAL_TIMEOUT_MS. */
  timeoutMs?: number;
  logger?: Logger;
}

interface TemporalFigures {
  /** Null when the ledger could not be read (ramp_database_up 0). */
  counts: Array<{ direction: string; status: string | null; count: number }> | null;
  outcomes: OutcomeEventCounts | null;
  routers: { unknownResources: number; deliveriesWaiting: number } | null;
  incidents: ReadonlyArray<Pick<Incident, 'kind' | 'acknowledged'>> | null;
  versions: VersionReport[] | null;
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
  readonly #unknownResources: Gauge | undefined;
  readonly #routerWaiting: Gauge | undefined;
  readonly #incidentsOpen: Gauge<'kind' | 'acknowledged'> | undefined;
  readonly #versionWorkflows: Gauge<'build_id' | 'state'> | undefined;
  #cached: { at: number; figures: TemporalFigures } | null = null;
  #reading: Promise<TemporalFigures> | null = null;

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
    }
    if (options.temporal) {
      this.#unknownResources = new Gauge({
        name: 'ramp_routers_unknown_resource',
        help: 'Resources the routers gave up on as unknown to the operator (404), as the running routers count them (Temporal visibility)',
        registers: [this.registry],
      });
      this.#routerWaiting = new Gauge({
        name: 'ramp_router_deliveries_waiting',
        help: 'Deliveries the running routers (the durable fallback) hold and have not routed yet',
        registers: [this.registry],
      });
    }
    if (options.temporal && options.workerDeployment) {
      this.#versionWorkflows = new Gauge({
        name: 'ramp_worker_version_workflows',
        help: "Workflows running on each version of the workers' Worker Deployment, by build ID and state (current, ramping, draining, drained, inactive)",
        labelNames: ['build_id', 'state'],
        registers: [this.registry],
      });
    }
    if (options.openIncidents) {
      this.#incidentsOpen = new Gauge({
        name: 'ramp_incidents_open',
        help: 'Open incidents of the incident store, by kind and whether someone on call acknowledged them',
        labelNames: ['kind', 'acknowledged'],
        registers: [this.registry],
      });
    }
  }

  /** Deadline of one read of the Temporal figures (for Retry-After). */
  get timeoutMs(): number {
    return this.#options.timeoutMs ?? HTTP_TEMPORAL_TIMEOUT_MS;
  }

  /** True when render() reads from Temporal (and so can fail when Temporal does not answer). */
  get readsTemporal(): boolean {
    return (
      this.#options.ledger !== undefined ||
      this.#options.temporal !== undefined ||
      this.#options.openIncidents !== undefined
    );
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

  /** The Prometheus text. Rejects (TemporalDeadlineError, or Temporal's error) when the Temporal figures cannot be read. */
  async render(): Promise<{ contentType: string; body: string }> {
    if (this.readsTemporal) {
      const figures = await this.#temporalFigures();
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
              figures.incidents.filter(
                (incident) =>
                  incident.kind === kind && (incident.acknowledged !== undefined) === acknowledged,
              ).length,
            );
      }
      if (figures.routers !== null) {
        this.#unknownResources?.set(figures.routers.unknownResources);
        this.#routerWaiting?.set(figures.routers.deliveriesWaiting);
      }
      if (figures.versions !== null && this.#versionWorkflows) {
        // Only the versions Temporal still lists: a removed one's series ends rather than stays at its last value.
        this.#versionWorkflows.reset();
        for (const version of figures.versions)
          this.#versionWorkflows.set({ build_id: version.buildId, state: version.state }, version.running);
      }
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** The cached figures while fresh; else the read in flight, or a new one that later scrapes share. */
  #temporalFigures(): Promise<TemporalFigures> {
    const ttlMs = this.#options.cacheTtlMs ?? METRICS_CACHE_TTL_MS;
    if (this.#cached && Date.now() - this.#cached.at < ttlMs) return Promise.resolve(this.#cached.figures);
    this.#reading ??= this.#readTemporalFigures()
      .then((figures) => {
        this.#cached = { at: Date.now(), figures };
        return figures;
      })
      .catch((error: unknown) => {
        this.#options.logger?.warn(
          { err: { name: (error as Error).name } },
          'Could not read the metrics figures from Temporal',
        );
        throw error;
      })
      .finally(() => {
        this.#reading = null;
      });
    return this.#reading;
  }

  #readTemporalFigures(): Promise<TemporalFigures> {
    const { temporal, openIncidents, workerDeployment } = this.#options;
    return withTemporalDeadline(
      this.timeoutMs,
      async () => {
        const { ledger } = this.#options;
        // The ledger away is a figure of its own (ramp_database_up 0), not a failed scrape.
        const fromLedger = <T>(read: (db: Ledger) => Promise<T>) =>
          ledger ? withTemporalDeadline(LEDGER_READ_TIMEOUT_MS, () => read(ledger)).catch(() => null) : null;
        const [counts, outcomes, routers, incidents, versions] = await Promise.all([
          fromLedger(rampCounts),
          fromLedger(countOutcomeEvents),
          temporal ? routerFigures(temporal) : Promise.resolve(null),
          openIncidents ? openIncidents() : Promise.resolve(null),
          temporal && workerDeployment
            ? deploymentReport(temporal, workerDeployment).then((report) => report.versions)
            : Promise.resolve(null),
        ]);
        return { counts, outcomes, routers, incidents, versions };
      },
      temporal,
    );
  }
}

/** How long a scrape waits for the ledger before it reports it down: well inside the scrape's own deadline. */
const LEDGER_READ_TIMEOUT_MS = 2_000;

/** Ramps by direction and status (every status of each direction, zeros included), and started per direction. */
async function rampCounts(ledger: Ledger): Promise<TemporalFigures['counts']> {
  const rows = await countRampsByStatus(ledger);
  const of = (direction: string, status: string | null) =>
    rows
      .filter((row) => row.direction === direction && (status === null || row.status === status))
      .reduce((sum, row) => sum + row.count, 0);
  return QUERIES.map((query) => ({ ...query, count: of(query.direction, query.status) }));
}

/**
 * Of the running routers: the resources given up as unknown to the operator (what each counts in its memo, since it
 * first ran), and the deliveries their lanes hold and have not routed yet (each router that answers asked).
 */
async function routerFigures(
  temporal: Client,
): Promise<{ unknownResources: number; deliveriesWaiting: number }> {
  let unknownResources = 0;
  const waiting: Array<Promise<number>> = [];
  for await (const router of temporal.workflow.list({
    query: `WorkflowType = '${WORKFLOW_TYPES.webhookRouter}' AND ExecutionStatus = 'Running'`,
  })) {
    unknownResources += routerUnknownResources(router.memo);
    // A router whose worker is down cannot answer a query; it counts for nothing here rather than failing the whole
    // scrape, since the metrics are what shows a worker down.
    waiting.push(
      temporal.workflow
        .getHandle(router.workflowId, router.runId)
        .query(routerStateQuery)
        .then((state) => state.active.reduce((sum, lane) => sum + lane.events.length, 0))
        .catch(() => 0),
    );
  }
  const counts = await Promise.all(waiting);
  return { unknownResources, deliveriesWaiting: counts.reduce((sum, count) => sum + count, 0) };
}
