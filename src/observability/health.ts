/**
 * /healthz (the process is up), /readyz (Temporal answers and the operator login works) and /metrics, as one
 * express router the receiver and the API mount before any authentication. Answers carry check names and
 * short fixed reasons only: never an address, a URL, a token or an upstream error message.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { SessionStatus } from '../operator/session';
import type { RampMetrics } from './metrics';

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface ReadinessProbe {
  name: string;
  /** Resolves when ready; rejects (any error) when not. */
  check(): Promise<void>;
}

/** Temporal is reachable and our namespace exists. */
export function temporalProbe(temporal: Client, timeoutMs = 3000): ReadinessProbe {
  return {
    name: 'temporal',
    async check() {
      await temporal.withDeadline(Date.now() + timeoutMs, () => temporal.workflowService.describeNamespace({ namespace: temporal.options.namespace }));
    },
  };
}

export interface OperatorSession {
  sessionStatus(): SessionStatus;
  refreshSession(): Promise<SessionStatus>;
}

/**
 * The operator login works: a live session counts as ready; otherwise one login is attempted (shared by concurrent
 * probes), and its outcome is remembered for `retryAfterMs` so probes never hammer the login endpoint.
 */
export function operatorProbe(operator: OperatorSession, options: { retryAfterMs?: number; now?: () => number } = {}): ReadinessProbe {
  const retryAfterMs = options.retryAfterMs ?? 10_000;
  const now = options.now ?? Date.now;
  let inFlight: Promise<void> | null = null;
  let lastFailureAt = -Infinity;
  return {
    name: 'operator',
    async check() {
      if (operator.sessionStatus().loggedIn) return;
      if (now() - lastFailureAt < retryAfterMs) throw new Error('operator login failed recently');
      inFlight ??= operator
        .refreshSession()
        .then((status) => {
          if (!status.loggedIn) throw new Error('operator login did not yield a session');
        })
        .catch((error: unknown) => {
          lastFailureAt = now();
          throw error;
        })
        .finally(() => {
          inFlight = null;
        });
      await inFlight;
    },
  };
}

export interface HealthRouterOptions {
  /** Adds the `temporal` readiness check. */
  temporal?: Client;
  /** Adds the `operator` readiness check (login works). */
  operator?: OperatorSession;
  /** More checks. */
  probes?: ReadinessProbe[];
  /** Per check (default 3 s). */
  timeoutMs?: number;
  /** Serves GET /metrics when given. */
  metrics?: RampMetrics;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken?: { reveal(): string } | undefined;
  logger?: Logger;
}

function withTimeout(promise: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function healthRouter(options: HealthRouterOptions): Router {
  const timeoutMs = options.timeoutMs ?? 3000;
  const probes: ReadinessProbe[] = [
    ...(options.temporal ? [temporalProbe(options.temporal, timeoutMs)] : []),
    ...(options.operator ? [operatorProbe(options.operator)] : []),
    ...(options.probes ?? []),
  ];
  const router = Router();

  router.get('/healthz', (_req: Request, res: Response) => {
    res.setHeader('cache-control', 'no-store');
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req: Request, res: Response) => {
    const results = await Promise.all(
      probes.map(async (probe) => {
        const started = Date.now();
        try {
          await withTimeout(probe.check(), timeoutMs);
          return [probe.name, 'ok'] as const;
        } catch (error) {
          const timedOut = error instanceof Error && error.message === 'timed out';
          options.logger?.warn({ check: probe.name, ms: Date.now() - started, err: { name: (error as Error).name } }, 'Readiness check failed');
          return [probe.name, timedOut ? 'timeout' : 'failing'] as const;
        }
      }),
    );
    const ready = results.every(([, outcome]) => outcome === 'ok');
    res.setHeader('cache-control', 'no-store');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unready', checks: Object.fromEntries(results) });
  });

  if (options.metrics) {
    const metrics = options.metrics;
    router.get('/metrics', async (req: Request, res: Response) => {
      const expected = options.metricsToken?.reveal();
      if (expected !== undefined && !sameText(req.headers.authorization ?? '', `Bearer ${expected}`)) {
        res.status(401).json({ error: { code: 'unauthorized', message: 'A valid bearer token is required' } });
        return;
      }
      const { contentType, body } = await metrics.render();
      res.setHeader('content-type', contentType);
      res.setHeader('cache-control', 'no-store');
      res.send(body);
    });
  }
  return router;
}
