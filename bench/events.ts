/**
 * Events: GET /v1/events over HTTP with `events` (1,000,000) outcome events in the ledger, from the product's API in
 * this process over a database of the leg's own. The events are seeded straight into the ledger first
 * (bench/lib/ledger-seed.ts: a month of ramps' and end users' events, most delivered, failed ones clustered in an old
 * outage, the newest pending behind one still going on) and the table analysed, as a month of traffic leaves it;
 * seeding is not measured.
 *
 * Each shape a client asks for, one request at a time with `limit=100` (the most a page holds): the first page;
 * filtered first pages by type, delivery status, end user, and a day's window (since/until), their values drawn in
 * turn over everything seeded; and deep pages, following nextPageToken page after page, unfiltered, by type and by
 * status. Figures: each shape's p99 (target: under 50 ms), beside the same page read straight from the ledger
 * (listEventViews, no HTTP) in lockstep with it: what the HTTP API adds to the query. Every shape's query plan, by
 * EXPLAIN ANALYZE with the first sample's values, is in the leg's results.
 */
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import type { LedgerSchema } from '../src/database/schema';
import { type DeliveryState } from '../src/database/schema';
import { OUTCOME_EVENT_TYPES } from '../src/domain/outcome-events';
import { type EventCursor, type EventQuery, listEventViews } from '../src/ledger/outcome-events';
import { startBenchApi } from './lib/api-reads';
import type { BenchDatabase } from './lib/context';
import { endUserOf, seedOutcomeEvents } from './lib/ledger-seed';
import { type Measurement, RUN_TAG } from './lib/measurement';
import type { Figure } from './lib/report';
import { summarize } from './lib/stats';

/** The figure: GET /v1/events p99 under 50 ms at 1,000,000 events. */
const TARGET_P99_MS = 50;
const PAGE = 100;
/** First pages per shape, each with the next value of its filter. */
const SAMPLES = 200;
/** Pages walked by each deep shape. */
const DEEP_PAGES = 200;
const DAY_MS = 24 * 60 * 60_000;
const END_USERS = 25_000;

interface Shape {
  name: string;
  /** The filter of the i-th sample. */
  filter(index: number): EventQuery;
  /** Deep: follow nextPageToken for DEEP_PAGES pages of the first sample's filter. */
  deep?: boolean;
}

interface ShapeResult {
  name: string;
  http: number[];
  direct: number[];
  /** Pages that came back empty (a filter matching nothing tells nothing). */
  empty: number;
  rows: number;
  plan: string;
}

/** The query string of a filter, as a client writes it. */
function queryString(filter: EventQuery, pageToken?: string): string {
  const parameters = new URLSearchParams({ limit: String(PAGE) });
  if (filter.type) parameters.set('type', filter.type);
  if (filter.delivery) parameters.set('status', filter.delivery);
  if (filter.endUserId) parameters.set('endUserId', filter.endUserId);
  if (filter.since) parameters.set('since', filter.since);
  if (filter.until) parameters.set('until', filter.until);
  if (pageToken) parameters.set('pageToken', pageToken);
  return parameters.toString();
}

/** The product's own query for a page, its SQL and parameters as Kysely compiles them, run under EXPLAIN ANALYZE. */
async function explain(database: BenchDatabase, filter: EventQuery, after?: EventCursor): Promise<string> {
  let compiled: CompiledQuery | undefined;
  const recording = new Kysely<LedgerSchema>({
    dialect: new PostgresDialect({ pool: database.pool }),
    log: (event) => {
      compiled ??= event.query;
    },
  });
  await listEventViews(recording, filter, PAGE, after);
  if (!compiled) return '(no query)';
  const plan = await database.pool.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers) ${compiled.sql}`,
    [...compiled.parameters],
  );
  return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
}

export const eventsList: Measurement = {
  name: 'events',
  description: 'GET /v1/events p50/p99 at 1,000,000 outcome events: first, filtered and deep pages',
  async run(context, settings, _shared, log) {
    const database = await context.freshDatabase('events');
    const api = await startBenchApi(context, database);
    try {
      const toMs = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      const span = { fromMs: toMs - 30 * DAY_MS, toMs };
      const label = `ev-${RUN_TAG}`;
      const seedStarted = performance.now();
      const seeded = await seedOutcomeEvents(database.db, settings.events, span, {
        label,
        endUsers: END_USERS,
        retryForMs: context.timings.outcomeDelivery.retryForMs,
      });
      await database.pool.query('analyze outcome_events');
      const seedMs = performance.now() - seedStarted;
      const states = await database.pool.query<{ delivery: string; count: string }>(
        'select delivery, count(*)::text as count from outcome_events group by delivery order by delivery',
      );
      const mix = states.rows.map((row) => `${row.delivery} ${row.count}`).join(', ');
      log(
        `[events] ${seeded.events} events of ${seeded.ramps} ramps and their end users seeded in ` +
          `${(seedMs / 1000).toFixed(1)} s (${mix})`,
      );

      const dayAt = (index: number) => span.fromMs + ((index * 7) % 30) * DAY_MS;
      const types = OUTCOME_EVENT_TYPES;
      const deliveries: DeliveryState[] = ['failed', 'pending', 'no-endpoint', 'delivered'];
      const shapes: Shape[] = [
        { name: 'first page', filter: () => ({}) },
        { name: 'type', filter: (index) => ({ type: types[index % types.length]! }) },
        { name: 'status', filter: (index) => ({ delivery: deliveries[index % deliveries.length]! }) },
        // The users ramps were drawn for: some with many events, most with a few.
        { name: 'endUserId', filter: (index) => ({ endUserId: endUserOf(index * 13, END_USERS, label) }) },
        {
          name: 'since/until (a day)',
          filter: (index) => ({
            since: new Date(dayAt(index)).toISOString(),
            until: new Date(dayAt(index) + DAY_MS).toISOString(),
          }),
        },
        {
          name: 'type and status',
          filter: (index) => ({
            type: types[index % types.length]!,
            delivery: deliveries[index % deliveries.length]!,
          }),
        },
        { name: 'deep pages', filter: () => ({}), deep: true },
        { name: 'deep pages, type', filter: () => ({ type: 'off_ramp.settled' }), deep: true },
        { name: 'deep pages, status', filter: () => ({ delivery: 'failed' }), deep: true },
      ];

      // The first requests pay for the server's and the pool's warm-up.
      for (let index = 0; index < 20; index += 1) await api.get(`/v1/events?${queryString({})}`);
      const results: ShapeResult[] = [];
      for (const shape of shapes) {
        const result: ShapeResult = { name: shape.name, http: [], direct: [], empty: 0, rows: 0, plan: '' };
        const page = async (
          filter: EventQuery,
          token: string | undefined,
          cursor: EventCursor | undefined,
        ) => {
          const answer = await api.getJson<{ data: unknown[]; pagination: { nextPageToken: string | null } }>(
            `/v1/events?${queryString(filter, token)}`,
          );
          if (answer.status !== 200)
            throw new Error(`GET /v1/events (${shape.name}) answered ${answer.status}`);
          const startedAt = performance.now();
          const direct = await listEventViews(database.db, filter, PAGE, cursor);
          result.direct.push(performance.now() - startedAt);
          result.http.push(answer.ms);
          result.rows += answer.body.data.length;
          if (answer.body.data.length === 0) result.empty += 1;
          return { token: answer.body.pagination.nextPageToken, cursor: direct.next ?? undefined };
        };
        if (shape.deep) {
          let token: string | undefined;
          let cursor: EventCursor | undefined;
          for (let index = 0; index < DEEP_PAGES; index += 1) {
            const next = await page(shape.filter(0), token, cursor);
            if (!next.token || !next.cursor) break;
            token = next.token;
            cursor = next.cursor;
          }
          result.plan = await explain(database, shape.filter(0), cursor);
        } else {
          for (let index = 0; index < SAMPLES; index += 1)
            await page(shape.filter(index), undefined, undefined);
          result.plan = await explain(database, shape.filter(0));
        }
        const http = summarize(result.http);
        log(
          `[events] ${shape.name}: p50 ${http.p50.toFixed(1)} ms, p99 ${http.p99.toFixed(1)} ms over ${http.count} pages ` +
            `(straight from the ledger p99 ${summarize(result.direct).p99.toFixed(1)} ms), ${result.empty} empty`,
        );
        if (http.p99 >= TARGET_P99_MS) log(`[events] ${shape.name} plan:\n${result.plan}`);
        results.push(result);
      }

      const figures: Figure[] = results.map((result) => {
        const http = summarize(result.http);
        const direct = summarize(result.direct);
        return {
          measurement: 'events',
          what: `GET /v1/events, ${result.name}, limit ${PAGE}, ${seeded.events} events: p99`,
          value: Math.round(http.p99 * 10) / 10,
          unit: 'ms',
          baseline: {
            what: 'the same page straight from the ledger',
            value: Math.round(direct.p99 * 10) / 10,
          },
          target: `< ${TARGET_P99_MS} ms`,
          met: http.p99 < TARGET_P99_MS && result.empty < result.http.length,
          note:
            `p50 ${http.p50.toFixed(1)} ms over ${http.count} pages (${result.rows} events, ${result.empty} empty pages); ` +
            `straight from the ledger p50 ${direct.p50.toFixed(1)} ms` +
            (result.name.startsWith('deep') ? `; ${http.count} pages deep` : ''),
        };
      });
      return {
        figures,
        legs: {
          events: seeded.events,
          ramps: seeded.ramps,
          seedMs,
          deliveries: Object.fromEntries(states.rows.map((row) => [row.delivery, Number(row.count)])),
          shapes: results.map((result) => ({
            name: result.name,
            http: summarize(result.http),
            direct: summarize(result.direct),
            rows: result.rows,
            empty: result.empty,
            plan: result.plan,
          })),
        },
      };
    } finally {
      await api.close();
      await database.close();
    }
  },
};
