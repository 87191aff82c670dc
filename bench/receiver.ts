/**
 * `npm run bench`: how fast the webhook receiver turns deliveries into durable Temporal signals, on this machine.
 * Starts its own in-memory dev server and an HTTPS receiver on loopback, sends a bounded number of deliveries with
 * bounded concurrency (BENCH_DELIVERIES, BENCH_CONCURRENCY), and prints throughput, latency percentiles and the
 * process's memory. No worker runs: the measure is the receiver's hand-off (signal-with-start) before its 200.
 */
import https from 'node:https';
import pino from 'pino';
import { loadReceiverConfig } from '../src/config/receiver';
import { loadWorkflowTimings } from '../src/config/timings';
import { startDevServer } from '../src/temporal/dev-server';
import { ensureTemporalCli } from '../src/temporal/install-cli';
import { connectTemporal } from '../src/temporal/wiring';
import { startReceiver } from '../src/webhooks/receiver';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true, maxSockets: CONCURRENCY });

function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
    request.end(body);
  });
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

async function main(): Promise<void> {
  const cli = await ensureTemporalCli({ log: () => undefined, env: process.env });
  const server = await startDevServer({ cliPath: cli.path, namespace: 'bench', uiPort: null });
  const connected = await connectTemporal({
    temporal: { namespace: 'bench', connection: {} },
    address: server.address,
  });
  const temporal = connected.client;
  const receiver = await startReceiver(loadReceiverConfig({ RECEIVER_PORT: '0' }), {
    temporal,
    taskQueue: 'bench-no-worker',
    timings: loadWorkflowTimings({}),
    logger: pino({ level: 'silent' }),
  });
  try {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const startedAt = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < DELIVERIES) {
          const index = next++;
          const body = JSON.stringify({
            data: { eventType: 'transaction-created', payload: { id: `bench-tx-${index}` } },
          });
          const sent = performance.now();
          const status = await post(receiver.recipientUrls.transaction, body);
          latencies.push(performance.now() - sent);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - startedAt) / 1000;
    latencies.sort((a, b) => a - b);
    const memory = process.memoryUsage();
    console.log(
      `receiver hand-off: ${DELIVERIES} deliveries, concurrency ${CONCURRENCY}, ${seconds.toFixed(2)} s`,
    );
    console.log(`  throughput  ${(DELIVERIES / seconds).toFixed(1)} deliveries/s`);
    console.log(
      `  latency ms  p50 ${percentile(latencies, 0.5).toFixed(1)}  p95 ${percentile(latencies, 0.95).toFixed(1)}  p99 ${percentile(latencies, 0.99).toFixed(1)}  max ${latencies.at(-1)!.toFixed(1)}`,
    );
    console.log(`  answers     ${[...statuses].map(([status, count]) => `${status}: ${count}`).join(', ')}`);
    console.log(
      `  memory MiB  rss ${(memory.rss / 2 ** 20).toFixed(0)}  heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)}`,
    );
    if ((statuses.get(200) ?? 0) !== DELIVERIES) process.exitCode = 1;
  } finally {
    await receiver.close();
    agent.destroy();
    await connected.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
