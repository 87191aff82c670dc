import { closedLoop } from '../../../bench/lib/load';
import { type BenchReport, markdown, relation } from '../../../bench/lib/report';
import { median, percentile, summarize } from '../../../bench/lib/stats';

const machine = {
  cpuModel: 'Test CPU',
  cores: 2,
  memoryGiB: 8,
  node: 'v24.0.0',
  platform: 'linux',
  loadAverage: 0.1,
};

describe('bench statistics and report', () => {
  test('percentiles and medians of samples', () => {
    const samples = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(summarize(samples)).toEqual({ count: 100, p50: 51, p95: 96, p99: 100, max: 100 });
    expect(percentile([], 0.5)).toBeNaN();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  test('a figure against its baseline: a ratio, or a difference where the target is one', () => {
    expect(
      relation({ measurement: 'm', what: 'w', value: 80, unit: '/s', baseline: { what: 'b', value: 100 } }),
    ).toBe(0.8);
    expect(
      relation({
        measurement: 'm',
        what: 'w',
        value: 12,
        unit: 'ms',
        baseline: { what: 'b', value: 10 },
        comparison: 'difference',
      }),
    ).toBe(2);
  });

  test('the Markdown table names the machine and flags a busy one', () => {
    const report: BenchReport = {
      startedAt: '2026-01-01T00:00:00.000Z',
      profile: 'quick',
      settings: { deliveries: 10 },
      machine: { ...machine, loadAverage: 3 },
      figures: [
        {
          measurement: 'signal path',
          what: 'throughput',
          value: 80,
          unit: '/s',
          baseline: { what: 'raw', value: 100 },
          target: '>= 0.8x',
          met: true,
        },
        {
          measurement: 'signal path',
          what: 'ack p50',
          value: 12.34,
          unit: 'ms',
          baseline: { what: 'raw', value: 10 },
          comparison: 'difference',
          target: '<= +5 ms',
          met: true,
          note: 'a note',
        },
      ],
      legs: {},
    };
    const table = markdown(report);
    expect(table).toContain('Test CPU, 2 cores, 8 GiB, Node v24.0.0');
    expect(table).toContain('busy: other work shared the machine');
    expect(table).toContain('| signal path | throughput: 80 /s | raw: 100 /s | 0.80x | >= 0.8x | yes |');
    expect(table).toContain('| signal path | ack p50: 12.3 ms | raw: 10 ms | +2.3 ms | <= +5 ms | yes |');
    expect(table).toContain('- signal path, ack p50: a note');
    expect(markdown({ ...report, machine })).not.toContain('busy');
    expect(table).not.toContain('persistence requests');
    const withMetrics = markdown({
      ...report,
      serverPersistence: {
        'deposit-wallets': {
          requests: 30,
          seconds: 1.5,
          top: [{ operation: 'UpdateWorkflowExecution', requests: 30, seconds: 1.5 }],
        },
      },
    });
    expect(withMetrics).toContain("The npm-start server's persistence requests during each leg");
    expect(withMetrics).toContain(
      '- deposit-wallets: 30 requests, 1.5 s in flight; UpdateWorkflowExecution 30 (1.5 s)',
    );
  });

  test('a closed loop sends each delivery once and counts errors apart', async () => {
    const seen: number[] = [];
    const result = await closedLoop({
      count: 50,
      concurrency: 4,
      timeLimitMs: 60_000,
      send: (index) => {
        seen.push(index);
        if (index % 10 === 0) return Promise.reject(new Error(`failed ${index}`));
        return Promise.resolve(index % 10 !== 1);
      },
    });
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(result).toMatchObject({ sent: 50, ok: 40, errors: 10, timedOut: false, firstError: 'failed 0' });
    expect(result.latency.count).toBe(40);
  });
});
