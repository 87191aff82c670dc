/**
 * The alert rules of deploy/prometheus against a real Prometheus scraping the running product. `npm start` plays the
 * demo against the sandbox, which ends with the gas wallet funded; then, as an integrator would through the sandbox,
 * the gas wallet is emptied and an end user's deposit strands for lack of gas. Prometheus scrapes the API, the
 * receiver and the worker's SDK metrics, and evaluates rules.yml with each `for` shortened (a minute becomes a
 * second, as the gas-monitor interval shortens the product's). The stuck-off-ramp and gas alerts must fire within a
 * bounded time, and resolve once the gas wallet is funded. Every metric the rules and the dashboard name must be among
 * what Prometheus scraped.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEV_API_KEY } from '../../src/config/api';
import { freePort } from '../../src/http/free-port';
import { Proc, waitForHttp200 } from '../helpers/processes';
import { metricNamesOf } from '../helpers/metric-names';
import { prometheusBinary } from './prometheus-binary';

const ROOT = path.join(__dirname, '..', '..');
const RULES = path.join(ROOT, 'deploy', 'prometheus', 'rules.yml');
const DASHBOARD = path.join(ROOT, 'deploy', 'prometheus', 'grafana-dashboard.json');
/** How long after the stranded deposit both alerts must fire, and after the funding both must be gone. */
const FIRE_WITHIN_MS = 90_000;
const RESOLVE_WITHIN_MS = 120_000;

interface PromAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

async function promGet<T>(base: string, apiPath: string): Promise<T> {
  const response = await fetch(`${base}${apiPath}`);
  if (!response.ok) throw new Error(`${apiPath}: HTTP ${response.status}`);
  return ((await response.json()) as { data: T }).data;
}

async function until<T>(what: string, timeoutMs: number, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what} not within ${timeoutMs} ms${last ? ` (${last instanceof Error ? last.message : 'no answer'})` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

describe('alerts against a real Prometheus', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ramp-alerts-'));
  const procs: Proc[] = [];

  afterAll(async () => {
    for (const proc of procs.reverse()) await proc.stop('SIGINT', 30_000);
  });

  test('a stranded off-ramp and the gas wallet under its minimum fire, and resolve once the gas wallet is funded', async () => {
    const [devPort, apiPort, receiverPort, sandboxPort, workerMetricsPort, promPort] = await Promise.all(
      Array.from({ length: 6 }, () => freePort()),
    );
    const ramp = new Proc(
      'npm start',
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['src/entry/start.ts'],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          TEMPORAL_DATA_DIR: path.join(dir, 'data'),
          TEMPORAL_DEV_PORT: String(devPort),
          TEMPORAL_UI_PORT: '0',
          API_PORT: String(apiPort),
          RECEIVER_PORT: String(receiverPort),
          SANDBOX_PORT: String(sandboxPort),
          TEMPORAL_METRICS_BIND_ADDRESS: `127.0.0.1:${workerMetricsPort}`,
          GAS_MONITOR_INTERVAL: '2s',
          LOG_LEVEL: 'warn',
        },
        logFile: path.join(dir, 'npm-start.log'),
      },
    );
    procs.push(ramp);

    // The rules as shipped, each `for` shortened from minutes to as many seconds.
    const rules = readFileSync(RULES, 'utf8').replace(/^(\s+for: )(\d+)m$/gm, '$1$2s');
    expect(rules).not.toMatch(/^\s+for: \d+m$/m);
    writeFileSync(path.join(dir, 'rules.yml'), rules);
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'rule_files: [rules.yml]',
        'scrape_configs:',
        `  - { job_name: ramp-api, static_configs: [{ targets: ['127.0.0.1:${apiPort}'] }] }`,
        `  - job_name: ramp-receiver`,
        `    scheme: https`,
        `    tls_config: { insecure_skip_verify: true }`,
        `    static_configs: [{ targets: ['127.0.0.1:${receiverPort}'] }]`,
        `  - { job_name: ramp-worker, static_configs: [{ targets: ['127.0.0.1:${workerMetricsPort}'] }] }`,
        '',
      ].join('\n'),
    );
    const prom = `http://127.0.0.1:${promPort}`;
    const prometheus = new Proc(
      'prometheus',
      prometheusBinary(),
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
      ],
      { cwd: dir, env: { PATH: process.env.PATH }, logFile: path.join(dir, 'prometheus.log') },
    );
    procs.push(prometheus);
    await waitForHttp200(`${prom}/-/ready`, prometheus, 60_000);

    await ramp.waitForOutput(/== Summary/, 400_000);
    await ramp.waitForOutput(/The sandbox is ready for your own ramps/, 60_000);
    const gasWalletId = /gas wallet ([0-9a-f-]{36})/.exec(ramp.output)![1]!;
    const sandbox = `http://127.0.0.1:${sandboxPort}/sandbox/v1`;
    const post = (url: string, body: unknown, method = 'POST') =>
      fetch(url, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEV_API_KEY}` },
        body: JSON.stringify(body),
      });

    // The gas wallet emptied: under its minimum, and the next first deposit cannot be swept.
    expect(
      (await post(`${sandbox}/wallets/${gasWalletId}/balances`, { asset: 'TRX', amount: '0' }, 'PUT')).status,
    ).toBe(200);
    const wallet = await post(`http://127.0.0.1:${apiPort}/v1/end-users/alerts-user/deposit-wallet`, {});
    expect(wallet.status).toBe(200);
    const { addresses } = (
      (await wallet.json()) as { data: { addresses: Array<{ network: string; address: string }> } }
    ).data;
    const tron = addresses.find(({ network }) => network === 'networks/tron-mainnet')!.address;
    const deposit = await post(`${sandbox}/offramp/deposits`, { address: tron, coin: 'USDT', amount: '50' });
    expect(deposit.status).toBe(202);

    const firing = async (names: string[]) => {
      const { alerts } = await promGet<{ alerts: PromAlert[] }>(prom, '/api/v1/alerts');
      return names.every((name) =>
        alerts.some((alert) => alert.labels.alertname === name && alert.state === 'firing'),
      )
        ? alerts
        : undefined;
    };
    const started = Date.now();
    const fired = await until('RampOffRampStuck and RampGasWalletLow firing', FIRE_WITHIN_MS, () =>
      firing(['RampOffRampStuck', 'RampGasWalletLow']),
    );
    const firedAfterMs = Date.now() - started;
    // The stranded deposit's own incident pages by kind too.
    expect(
      fired.some(
        (alert) => alert.labels.alertname === 'RampIncidentOpen' && alert.labels.kind === 'gas-shortfall',
      ),
    ).toBe(true);

    const funded = await fetch(`http://127.0.0.1:${sandboxPort}/sandbox/v1/wallets/${gasWalletId}/balances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ asset: 'TRX', amount: '1000' }),
    });
    expect(funded.status).toBe(200);
    const fundedAt = Date.now();
    // The demo's off-quote off-ramp settles with its `off_quote` exception open on purpose: a person closes that one.
    const exceptionLeftOpen = (alert: PromAlert) =>
      alert.labels.alertname === 'RampIncidentOpen' && alert.labels.kind === 'ramp-exception';
    const remaining = await until('every other alert resolved', RESOLVE_WITHIN_MS, async () => {
      const { alerts } = await promGet<{ alerts: PromAlert[] }>(prom, '/api/v1/alerts');
      return alerts.every(exceptionLeftOpen) ? alerts : undefined;
    });
    expect(remaining.map((alert) => alert.labels.kind)).toEqual(['ramp-exception']);
    const resolvedAfterMs = Date.now() - fundedAt;
    process.stdout.write(
      `[alerts] fired ${Math.round(firedAfterMs / 1000)} s after the deposit; resolved ${Math.round(resolvedAfterMs / 1000)} s after the funding\n`,
    );

    // Every metric the rules and the dashboard name was scraped from the product.
    const scraped = new Set(await promGet<string[]>(prom, '/api/v1/label/__name__/values'));
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const named = metricNamesOf([
      readFileSync(RULES, 'utf8'),
      ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)),
    ]);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !scraped.has(name))).toEqual([]);
  });
});
