/**
 * The dev server's persistence work during a leg, read from its Prometheus metrics (`--metrics-port`): requests and
 * time in flight per persistence operation, as the difference of two scrapes. On the dev server every one of them goes
 * through its SQLite file, so this is what a leg costs the server, in its own words. Also the frontend's requests of
 * one namespace by operation (queries, heartbeats, visibility calls: what no history records). Pure: parsing and
 * arithmetic.
 */
import type { FrontendRequests } from './billable-actions';

export interface OperationCost {
  requests: number;
  /** Summed latency of those requests, seconds (requests in flight at once add up). */
  seconds: number;
}

export type PersistenceCounts = Record<string, OperationCost>;

export interface PersistenceSummary {
  requests: number;
  seconds: number;
  /** The operations with the most requests, most first. */
  top: ({ operation: string } & OperationCost)[];
}

const SAMPLE = /^(persistence_requests|persistence_latency_sum)\{([^}]*)\}\s+(\S+)$/;
const OPERATION = /(?:^|,)operation="([^"]*)"/;

/** Requests and latency per operation, summed over the other labels, from a Prometheus text exposition. */
export function parsePersistenceMetrics(text: string): PersistenceCounts {
  const counts: PersistenceCounts = {};
  for (const line of text.split('\n')) {
    const sample = SAMPLE.exec(line.trim());
    if (!sample) continue;
    const [, metric, labels, valueText] = sample;
    const operation = OPERATION.exec(labels ?? '')?.[1];
    const value = Number(valueText);
    if (!operation || !Number.isFinite(value)) continue;
    const cost = (counts[operation] ??= { requests: 0, seconds: 0 });
    if (metric === 'persistence_requests') cost.requests += value;
    else cost.seconds += value;
  }
  return counts;
}

const FRONTEND_SAMPLE = /^(service_requests|service_error_with_type)\{([^}]*)\}\s+(\S+)$/;
const label = (labels: string, name: string) => new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1];

/** The frontend's requests of `namespace` by operation, and its errors by type, from an exposition. */
export function parseFrontendRequests(text: string, namespace: string): FrontendRequests {
  // The server's reporter writes every other character of a label value as '_' (ramp-cost: ramp_cost).
  const namespaceLabel = namespace.replace(/[^A-Za-z0-9_]/g, '_');
  const requests: FrontendRequests = {};
  for (const line of text.split('\n')) {
    const sample = FRONTEND_SAMPLE.exec(line.trim());
    if (!sample) continue;
    const [, metric, labels = '', valueText] = sample;
    const operation = label(labels, 'operation');
    const value = Number(valueText);
    if (label(labels, 'service_name') !== 'frontend' || label(labels, 'namespace') !== namespaceLabel)
      continue;
    if (!operation || !Number.isFinite(value)) continue;
    const counted = (requests[operation] ??= { requests: 0, errors: {} });
    if (metric === 'service_requests') counted.requests += value;
    else {
      const type = label(labels, 'error_type') ?? 'unknown';
      counted.errors[type] = (counted.errors[type] ?? 0) + value;
    }
  }
  return requests;
}

/** The frontend's requests between two scrapes of the same server, by operation. */
export function frontendDelta(before: FrontendRequests, after: FrontendRequests): FrontendRequests {
  const delta: FrontendRequests = {};
  for (const [operation, counted] of Object.entries(after)) {
    const earlier = before[operation] ?? { requests: 0, errors: {} };
    const requests = counted.requests - earlier.requests;
    if (requests <= 0) continue;
    const errors: Record<string, number> = {};
    for (const [type, count] of Object.entries(counted.errors)) {
      const more = count - (earlier.errors[type] ?? 0);
      if (more > 0) errors[type] = more;
    }
    delta[operation] = { requests, errors };
  }
  return delta;
}

/** What happened between two scrapes of the same server (operations first seen in `after` count from zero). */
export function persistenceDelta(before: PersistenceCounts, after: PersistenceCounts): PersistenceCounts {
  const delta: PersistenceCounts = {};
  for (const [operation, cost] of Object.entries(after)) {
    const earlier = before[operation] ?? { requests: 0, seconds: 0 };
    const requests = cost.requests - earlier.requests;
    if (requests > 0) delta[operation] = { requests, seconds: Math.max(0, cost.seconds - earlier.seconds) };
  }
  return delta;
}

export function summarizePersistence(counts: PersistenceCounts, top = 8): PersistenceSummary {
  const operations = Object.entries(counts)
    .map(([operation, cost]) => ({ operation, ...cost }))
    .sort((a, b) => b.requests - a.requests || a.operation.localeCompare(b.operation));
  return {
    requests: operations.reduce((sum, entry) => sum + entry.requests, 0),
    seconds: operations.reduce((sum, entry) => sum + entry.seconds, 0),
    top: operations.slice(0, top),
  };
}

/** One line of the report: the total, then the largest operations with their time. */
export function persistenceLine(summary: PersistenceSummary): string {
  const operations = summary.top
    .map((entry) => `${entry.operation} ${entry.requests} (${entry.seconds.toFixed(1)} s)`)
    .join(', ');
  return `${summary.requests} requests, ${summary.seconds.toFixed(1)} s in flight; ${operations}`;
}

/**
 * A measured section's persistence work per unit of it (a wallet, an off-ramp), for a figure's note: nothing when
 * the server's metrics are off or no unit was done.
 */
export function persistencePerUnit(
  before: PersistenceCounts | undefined,
  after: PersistenceCounts | undefined,
  units: number,
  unitName: string,
): string {
  if (!before || !after || units <= 0) return '';
  const summary = summarizePersistence(persistenceDelta(before, after), 4);
  const operations = summary.top
    .map((entry) => `${entry.operation} ${(entry.requests / units).toFixed(1)}`)
    .join(', ');
  return `; dev server persistence per ${unitName}: ${(summary.requests / units).toFixed(1)} requests, ${((summary.seconds * 1000) / units).toFixed(0)} ms in flight (${operations})`;
}
