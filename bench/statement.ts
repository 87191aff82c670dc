/**
 * Statement: the settlement statement of a period holding `statementRamps` (100,000) booked ramps, streamed over
 * GET /v1/statement as a client's backend downloads it, in JSON and in CSV, from the product's API in this process
 * over a database of the leg's own. The rows are seeded straight into the ledger first (bench/lib/ledger-seed.ts: a
 * month of on-ramps and off-ramps as their record activity books them); seeding is not measured.
 *
 * Rounds interleaved in a rotating order, medians taken: the raw SELECT of the same booked rows in one query (the
 * baseline: what reading them costs the database and the driver at the least), then the JSON and the CSV download.
 * Figures: each download's time against the raw SELECT (target: under 10 s for 100,000 rows), and the heap after
 * collection, sampled on a timer during each download, its growth against the raw SELECT's (which holds every row
 * at once). Flat: the API holds a page of the statement at a time, whatever the period.
 */
import type { BenchContext } from './lib/context';
import { markerCounter, startBenchApi } from './lib/api-reads';
import { sampleHeap } from './lib/heap';
import { seedBookedRamps } from './lib/ledger-seed';
import { type Measurement, RUN_TAG } from './lib/measurement';
import type { Figure } from './lib/report';
import { summarize } from './lib/stats';

/** The figure: 100,000 booked rows streamed in under 10 s. */
const TARGET_MS = 10_000;
const TARGET_ROWS = 100_000;
/** Flat: the download's heap grows by at most this share of what holding every row takes. */
const FLAT_SHARE = 0.1;
const HEAP_SAMPLE_MS = 1_000;
const DAY_MS = 24 * 60 * 60_000;
/** End users the seeded ramps belong to. */
const END_USERS = 20_000;

interface Download {
  ms: number;
  rows: number;
  bytes: number;
  /** Heap after collection: before the download, then every sample; growth is the peak over the first. */
  heapGrowthMiB: number;
  /** From the first sample taken during the download to the last: a trend that a peak may hide. */
  heapDriftMiB: number;
}

const MiB = 2 ** 20;

function heapFigures(samples: number[]): Pick<Download, 'heapGrowthMiB' | 'heapDriftMiB'> {
  const before = samples[0]!;
  const during = samples.slice(1);
  return {
    heapGrowthMiB: (Math.max(before, ...during) - before) / MiB,
    heapDriftMiB: during.length > 1 ? (during[during.length - 1]! - during[0]!) / MiB : 0,
  };
}

export const statementExport: Measurement = {
  name: 'statement',
  description:
    'the settlement statement of 100,000 booked rows streamed over GET /v1/statement, against the raw SELECT',
  async run(context: BenchContext, settings, _shared, log) {
    const count = settings.statementRamps;
    const database = await context.freshDatabase('statement');
    const api = await startBenchApi(context, database);
    try {
      // A month closing before now: the period the statement asks for.
      const toMs = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      const span = { fromMs: toMs - 30 * DAY_MS, toMs };
      const from = new Date(span.fromMs).toISOString();
      const to = new Date(span.toMs).toISOString();
      const seedStarted = performance.now();
      await seedBookedRamps(database.db, count, span, { label: `st-${RUN_TAG}`, endUsers: END_USERS });
      const seedMs = performance.now() - seedStarted;
      const sizes = await database.pool.query<{ bytes: string }>(
        `select pg_total_relation_size('bookings')::text as bytes`,
      );
      log(
        `[statement] ${count} booked rows seeded in ${(seedMs / 1000).toFixed(1)} s ` +
          `(bookings ${(Number(sizes.rows[0]!.bytes) / MiB).toFixed(0)} MiB with its indexes)`,
      );

      const raw = async (): Promise<Download> => {
        const heap = sampleHeap(HEAP_SAMPLE_MS);
        const startedAt = performance.now();
        const result = await database.pool.query<{ row: unknown }>(
          'select row, reconciled, reconciliation from bookings where closed_at >= $1 and closed_at < $2 order by closed_at, workflow_id',
          [from, to],
        );
        const ms = performance.now() - startedAt;
        const samples = heap.stop();
        return { ms, rows: result.rowCount ?? 0, bytes: 0, ...heapFigures(samples) };
      };
      const download = (format: 'json' | 'csv') => async (): Promise<Download> => {
        // Each row of the JSON statement has one workflowId (the totals none); each CSV row line starts with its kind.
        const rows = markerCounter(format === 'json' ? '"workflowId":' : '\nramp,');
        const heap = sampleHeap(HEAP_SAMPLE_MS);
        const answer = await api.get(
          `/v1/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&format=${format}`,
          (chunk) => rows.add(chunk),
        );
        const samples = heap.stop();
        if (answer.status !== 200) throw new Error(`GET /v1/statement (${format}) answered ${answer.status}`);
        return { ms: answer.ms, rows: rows.count(), bytes: answer.bytes, ...heapFigures(samples) };
      };
      const legs = { raw: raw, json: download('json'), csv: download('csv') };
      type LegName = keyof typeof legs;
      const names = Object.keys(legs) as LegName[];
      const results: Record<LegName, Download[]> = { raw: [], json: [], csv: [] };
      // One small statement first: the first request pays for the server's and the driver's warm-up.
      await api.get(
        `/v1/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(span.fromMs + DAY_MS / 24).toISOString())}`,
      );
      for (let round = 0; round < settings.rounds; round += 1) {
        for (let step = 0; step < names.length; step += 1) {
          const name = names[(round + step) % names.length]!;
          const result = await legs[name]();
          results[name].push(result);
          log(
            `[statement] round ${round + 1}, ${name}: ${result.rows} rows in ${(result.ms / 1000).toFixed(2)} s, ` +
              `${(result.bytes / MiB).toFixed(0)} MiB, heap +${result.heapGrowthMiB.toFixed(1)} MiB (drift ${result.heapDriftMiB.toFixed(1)})`,
          );
        }
      }
      const median = (name: LegName, pick: (download: Download) => number) =>
        summarize(results[name].map(pick)).p50;
      const rawMs = median('raw', (download) => download.ms);
      const rawHeap = median('raw', (download) => download.heapGrowthMiB);
      const targetMs = (TARGET_MS * count) / TARGET_ROWS;
      const figures: Figure[] = (['json', 'csv'] as const).flatMap((format): Figure[] => {
        const ms = median(format, (download) => download.ms);
        const growth = median(format, (download) => download.heapGrowthMiB);
        const drift = Math.max(...results[format].map((download) => Math.abs(download.heapDriftMiB)));
        const allRows = results[format].every((download) => download.rows === count);
        const bytes = results[format][0]!.bytes;
        return [
          {
            measurement: 'statement',
            what: `GET /v1/statement?format=${format}, ${count} booked rows, median of ${settings.rounds}`,
            value: Math.round(ms / 10) / 100,
            unit: 's',
            baseline: { what: 'raw SELECT of the same rows, one query', value: Math.round(rawMs / 10) / 100 },
            target: `< ${targetMs / 1000} s`,
            met: allRows && ms < targetMs,
            note:
              `${Math.round((count / ms) * 1000)} rows/s, ${(bytes / MiB).toFixed(0)} MiB; every round's row count ` +
              `${allRows ? 'complete' : results[format].map((download) => download.rows).join('/')}; seeding took ` +
              `${(seedMs / 1000).toFixed(0)} s (not measured)`,
          },
          {
            measurement: 'statement',
            what: `heap growth during GET /v1/statement?format=${format} (after collection, every ${HEAP_SAMPLE_MS} ms)`,
            value: Math.round(growth * 10) / 10,
            unit: 'MiB',
            baseline: { what: 'the raw SELECT, holding every row', value: Math.round(rawHeap * 10) / 10 },
            target: `<= ${FLAT_SHARE}x (flat)`,
            met: growth <= FLAT_SHARE * rawHeap,
            note: `the API server, its database pool and this client share the process; first to last sample during the download: at most ${drift.toFixed(1)} MiB`,
          },
        ];
      });
      return { figures, legs: { rows: count, seedMs, from, to, results } };
    } finally {
      await api.close();
      await database.close();
    }
  },
};
