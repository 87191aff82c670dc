/**
 * The recorded cost of one ramp: one end user's deposit wallet, one off-ramp and one on-ramp settled end to end as a
 * client runs them (bench/lib/ramp-journeys.ts, the bench's own journeys and counting), on a dev server of the test's
 * own that serves its metrics, so that its queries, heartbeats and visibility calls are this test's alone. Fails when
 * the billable actions of any of the three grow past bench/ramp-cost.json: a change that adds work to a ramp updates
 * the figure in the same commit.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { parseFrontendRequests } from '../../bench/lib/server-metrics';
import {
  COST_PHASES,
  COST_TIME_SCALE,
  type CostPhase,
  measureRampCost,
  perRamp,
  startClientEndpoint,
} from '../../bench/lib/ramp-journeys';
import { startApiServer } from '../../src/api/server';
import { loadApiConfig } from '../../src/config/api';
import { loadClientWebhookConfig } from '../../src/config/client-webhooks';
import { freePort } from '../../src/http/free-port';
import { RampHttpClient } from '../../src/http-client';
import { DEV_SERVER_TUNING, startDevServer } from '../../src/temporal/dev-server';
import { startRampStack } from '../helpers/ramp-stack';

const RECORDED = path.join(__dirname, '../../bench/ramp-cost.json');
const NAMESPACE = 'ramp-cost';
const API_KEY = 'ramp-cost-test-api-key-5b9e';

test('a deposit wallet, an off-ramp and an on-ramp cost no more billable actions than recorded', async () => {
  const recorded = JSON.parse(readFileSync(RECORDED, 'utf8')) as Record<CostPhase, number>;
  const metricsPort = await freePort();
  const server = await startDevServer({
    cliPath: process.env.TEST_TEMPORAL_CLI_PATH!,
    namespace: NAMESPACE,
    uiPort: null,
    tuning: DEV_SERVER_TUNING,
    extraArgs: ['--metrics-port', String(metricsPort)],
  });
  const stoppers: (() => Promise<unknown>)[] = [() => server.stop()];
  try {
    const connection = await Connection.connect({ address: server.address });
    stoppers.push(() => connection.close());
    const client = new Client({ connection, namespace: NAMESPACE });
    const endpoint = await startClientEndpoint();
    stoppers.push(() => endpoint.close());
    const stack = await startRampStack(client, connection, {
      server: { address: server.address, namespace: NAMESPACE },
      sandbox: { timeScale: COST_TIME_SCALE },
      // No step deadline passes within a chain: a poll would be work the ramp does only when an event is late.
      timings: { stepDeadlineMs: 60_000, processTimeoutMs: 120_000 },
      clientWebhooks: loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: endpoint.url,
        CLIENT_WEBHOOK_SECRET: endpoint.secret,
      }),
      directForward: true,
    });
    stoppers.push(() => stack.close());
    const api = await startApiServer({
      config: loadApiConfig({ API_PORT: '0', API_KEY }),
      ramp: stack.ramp,
      ledger: stack.database.db,
      logger: pino({ level: 'silent' }),
    });
    stoppers.push(() => api.close());

    const cost = await measureRampCost(
      {
        temporal: client,
        taskQueue: stack.worker.taskQueue,
        api: new RampHttpClient({ baseUrl: api.url, apiKey: API_KEY }),
        sandboxUrl: stack.sandbox.url,
        outcomes: endpoint,
        frontendRequests: async () =>
          parseFrontendRequests(
            await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
            NAMESPACE,
          ),
      },
      {
        ramps: 1,
        label: 'cost',
        settleTimeoutMs: 30_000,
        quietMs: 1_000,
        log: () => undefined,
      },
    );

    const measured = Object.fromEntries(
      COST_PHASES.map((phase) => [phase, perRamp(cost.phases[phase])]),
    ) as Record<CostPhase, ReturnType<typeof perRamp>>;
    expect(COST_PHASES.map((phase) => [phase, cost.phases[phase].settled])).toEqual(
      COST_PHASES.map((phase) => [phase, 1]),
    );
    // Everything measured was the client's: nothing of it was still at work after the last phase.
    expect(cost.actionsAfter).toBe(0);
    // Every source is counted: each phase's own workflow, and the heartbeats of the wallet's creation (the
    // frontend's counts were read).
    expect(COST_PHASES.map((phase) => [phase, measured[phase].ownActions > 0])).toEqual(
      COST_PHASES.map((phase) => [phase, true]),
    );
    expect(measured['deposit wallet'].heartbeats).toBeGreaterThan(0);
    // A client's reads come from the ledger: none of them is a query or a visibility call to Temporal.
    expect(
      COST_PHASES.map((phase) => [phase, measured[phase].queries, measured[phase].visibilityCalls]),
    ).toEqual(COST_PHASES.map((phase) => [phase, 0, 0]));
    const figures = Object.fromEntries(COST_PHASES.map((phase) => [phase, measured[phase].actions]));
    const grown = COST_PHASES.filter((phase) => measured[phase].actions > recorded[phase]).map(
      (phase) =>
        `${phase}: ${measured[phase].actions} billable actions, recorded ${recorded[phase]} ` +
        `(by workflow type ${JSON.stringify(measured[phase].byWorkflowType)}, by kind ${JSON.stringify(measured[phase].byKind)})`,
    );
    // A change that adds work records it: bench/ramp-cost.json takes the figures measured in the same commit.
    expect({ grown, measured: figures }).toEqual({ grown: [], measured: figures });
  } finally {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  }
});
