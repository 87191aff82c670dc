/**
 * /healthz (the process is up), /readyz (Temporal answers and the operator login works) and /metrics, as one
 * express router the receiver and the API mount before their own authentication. Answers carry check names and
 * short fixed reasons only: never an address, a URL, a token or an upstream error message. The receiver adds to
 * /readyz's details the header names its deliveries carried (src/webhooks/delivery-headers.ts).
 *
 * Who may read what:
 * - /healthz, and /readyz's verdict (200 ready / 503 unready, with Retry-After), are open: probes need no secret.
 * - /metrics and /readyz's per-check details need `Authorization: Bearer <METRICS_TOKEN>`. Without a token
 *   configured they are open only on a server bound to loopback; elsewhere /metrics answers 401 and /readyz gives
 *   the verdict alone.
 */
import type { Client } from '@temporalio/client';
import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { sendError } from '../http/errors';
import { isLoopbackHost } from '../http/host';
import type { SessionStatus } from '../operator/session';
import { sameSecret } from '../secrets/compare';
import type { RampMetrics } from './metrics';

export interface ReadinessProbe {
  name: string;
  /** Resolves when ready; rejects (any error) when not. */
  check(): Promise<void>;
}

/** Each readiness check: a load balancer probes often, and a dependency slower than this is not ready. */
export const READINESS_TIMEOUT_MS = 3_000;

/** Temporal is reachable and our namespace exists. */
export function temporalProbe(temporal: Client, timeoutMs = READINESS_TIMEOUT_MS): ReadinessProbe {
  return {
    name: 'temporal',
    async check() {
      await temporal.withDeadline(Date.now() + timeoutMs, () =>
        temporal.workflowService.describeNamespace({ namespace: temporal.options.namespace }),
      );
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
export function operatorProbe(
  operator: OperatorSession,
  options: { retryAfterMs?: number; now?: () => number } = {},
): ReadinessProbe {
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
  /** Per check; default READINESS_TIMEOUT_MS (tests shorten it). */
  timeoutMs?: number;
  /** Serves GET /metrics when given. */
  metrics?: RampMetrics;
  /** The bearer token /metrics and the /readyz details need. */
  metricsToken?: { reveal(): string } | undefined;
  /** More of /readyz's details (the receiver's delivery header names), shown to whoever may read the details. */
  details?: () => Record<string, unknown>;
  /**
   * The host the server is bound to. Without a metrics token, /metrics and the /readyz details are served only when
   * it is a loopback address; unknown counts as not loopback.
   */
  bindHost?: string;
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

/** True when /metrics and the /readyz details would be refused to everyone (non-loopback bind, no token). */
export function metricsClosed(options: Pick<HealthRouterOptions, 'metricsToken' | 'bindHost'>): boolean {
  return options.metricsToken === undefined && !isLoopbackHost(options.bindHost);
}

/** One warning at start-up when /metrics is closed for lack of a token, so the refusal is not a mystery. */
export function warnIfMetricsClosed(
  options: Pick<HealthRouterOptions, 'metricsToken' | 'bindHost' | 'metrics'>,
  logger: Logger,
  server: string,
): void {
  if (metricsClosed(options)) {
    logger.warn(
      { server },
      'METRICS_TOKEN is not set and the server is not bound to loopback: /metrics and the /readyz details are refused',
    );
  }
}

export function healthRouter(options: HealthRouterOptions): Router {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  const probes: ReadinessProbe[] = [
    ...(options.temporal ? [temporalProbe(options.temporal, timeoutMs)] : []),
    ...(options.operator ? [operatorProbe(options.operator)] : []),
    ...(options.probes ?? []),
  ];
  const loopback = isLoopbackHost(options.bindHost);
  const mayReadDetails = (req: Request): boolean => {
    const expected = options.metricsToken?.reveal();
    if (expected === undefined) return loopback;
    return sameSecret(req.headers.authorization ?? '', `Bearer ${expected}`);
  };
  const router = Router();

  router.get('/healthz', (_req: Request, res: Response) => {
    res.setHeader('cache-control', 'no-store');
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (req: Request, res: Response) => {
    const results = await Promise.all(
      probes.map(async (probe) => {
        const started = Date.now();
        try {
          await withTimeout(probe.check(), timeoutMs);
          return [probe.name, 'ok'] as const;
        } catch (error) {
          const timedOut = error instanceof Error && error.message === 'timed out';
          options.logger?.warn(
            { check: probe.name, ms: Date.now() - started, err: { name: (error as Error).name } },
            'Readiness check failed',
          );
          return [probe.name, timedOut ? 'timeout' : 'failing'] as const;
        }
      }),
    );
    const ready = results.every(([, outcome]) => outcome === 'ok');
    res.setHeader('cache-control', 'no-store');
    if (!ready) res.setHeader('retry-after', String(Math.max(1, Math.ceil(timeoutMs / 1000))));
    const status = ready ? 'ready' : 'unready';
    res
      .status(ready ? 200 : 503)
      .json(
        mayReadDetails(req)
          ? { status, checks: Object.fromEntries(results), ...options.details?.() }
          : { status },
      );
  });

  if (options.metrics) {
    const metrics = options.metrics;
    router.get('/metrics', async (req: Request, res: Response) => {
      if (!mayReadDetails(req)) {
        res.setHeader('www-authenticate', 'Bearer');
        sendError(res, 401, 'unauthorized', 'A valid bearer token is required');
        return;
      }
      // Never waits on Temporal: the figures are the process's own and the ledger's (down: ramp_database_up 0).
      const rendered = await metrics.render();
      res.setHeader('content-type', rendered.contentType);
      res.setHeader('cache-control', 'no-store');
      res.send(rendered.body);
    });
  }
  return router;
}
