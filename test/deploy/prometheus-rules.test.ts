/**
 * deploy/prometheus as an on-call person meets it: every alert links a runbook section that exists in
 * docs/operations.md, every incident kind is watched by an alert and has its runbook, and every product metric the
 * rules and the Grafana dashboard name is one the product serves. (promtool checks and unit-tests the rules in .ci/run;
 * the real Prometheus run, npm run test:alerts, checks the SDK's metrics too.)
 */
import type { Ledger } from '../../src/database/connection';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { parse } from 'yaml';
import { ROUTER_GIVE_UPS_METRIC, ROUTER_HOPS_METRIC, SETTLE_TIME_METRIC } from '../../src/domain/metrics';
import { RampMetrics } from '../../src/observability/metrics';
import { ALERT_KINDS } from '../../workflows/operations/alerts/types';
import { metricNamesOf } from '../helpers/metric-names';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  annotations?: Record<string, string>;
}
const groups = (parse(read('deploy/prometheus/rules.yml')) as { groups: Array<{ rules: Rule[] }> }).groups;
const rules = groups.flatMap((group) => group.rules);
const alerts = rules.filter((rule) => rule.alert);
const records = new Map(rules.filter((rule) => rule.record).map((rule) => [rule.record!, rule.expr]));
const dashboard = JSON.parse(read('deploy/prometheus/grafana-dashboard.json')) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
const anchors = new Set(
  read('docs/operations.md')
    .split('\n')
    .filter((line) => /^#{2,4} /.test(line))
    .map((line) => anchor(line.replace(/^#+ /, ''))),
);

/** An alert's expression with its recording rules written out, so the kinds it selects can be read. */
const expanded = (expr: string) =>
  expr.replace(/ramp:[a-z0-9_:]+/g, (name) => (records.has(name) ? `(${records.get(name)!})${name}` : name));
/** The incident kinds an alert selects with kind="..." or kind=~"a|b". */
const kindsOf = (expr: string): string[] => {
  const match = /kind=(~?)"([^"]+)"/.exec(expr);
  if (!match) return [];
  return match[1] ? match[2]!.split('|') : [match[2]!];
};

describe('deploy/prometheus', () => {
  test('every alert links a section of docs/operations.md that exists, for each kind it selects', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    for (const alert of alerts) {
      const url = alert.annotations?.runbook_url ?? '';
      expect({ alert: alert.alert, url }).toEqual({
        alert: alert.alert,
        url: expect.stringMatching(/^docs\/operations\.md#/),
      });
      const targets = url.includes('{{ $labels.kind }}')
        ? kindsOf(alert.expr).map((kind) => url.replace('{{ $labels.kind }}', kind))
        : [url];
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets)
        expect({ alert: alert.alert, found: anchors.has(target.split('#')[1]!) }).toEqual({
          alert: alert.alert,
          found: true,
        });
    }
  });

  test('every incident kind is watched by an alert, and has its runbook', () => {
    const watched = new Set(alerts.flatMap((alert) => kindsOf(expanded(alert.expr))));
    expect(ALERT_KINDS.filter((kind) => !watched.has(kind))).toEqual([]);
    expect(ALERT_KINDS.filter((kind) => !anchors.has(kind))).toEqual([]);
  });

  test('the dashboard shows ramps by status, settle time, deliveries, outcome events, incidents, slots, cache and versions', () => {
    const text = JSON.stringify(dashboard.panels.map((panel) => [panel.title, panel.targets]));
    for (const metric of [
      'ramp_processes',
      'ramp_settle_time_bucket',
      'ramp_webhook_deliveries_total',
      'ramp_outcome_events',
      'ramp_database_up',
      'ramp_incidents_open',
      'temporal_worker_task_slots_used',
      'temporal_sticky_cache_size',
      'ramp_worker_version_workflows',
    ])
      expect(text).toContain(metric);
  });

  test('every product metric the rules and the dashboard name is one the product serves', async () => {
    const metrics = new RampMetrics({
      ledger: {} as Ledger,
      temporal: {} as Client,
      workerDeployment: 'ramp-orchestrator',
    });
    metrics.close();
    // With the workers' own: recorded by the workflows on the SDK's metrics.
    const served = new Set([
      ...(await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name),
      ...['bucket', 'sum', 'count'].map((suffix) => `${SETTLE_TIME_METRIC}_${suffix}`),
      ROUTER_HOPS_METRIC,
      ROUTER_GIVE_UPS_METRIC,
    ]);
    const named = metricNamesOf([
      read('deploy/prometheus/rules.yml'),
      ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)),
    ]).filter((name) => name.startsWith('ramp_'));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !served.has(name))).toEqual([]);
  });
});
