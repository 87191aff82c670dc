import {
  frontendDelta,
  parseFrontendRequests,
  parsePersistenceMetrics,
  persistenceDelta,
  persistenceLine,
  persistencePerUnit,
  summarizePersistence,
} from '../../../bench/lib/server-metrics';

// The shape of the dev server's exposition: one series per operation and other labels, counters and a histogram.
const scrape = (update: number, create: number, updateSeconds: number) => `
# HELP persistence_requests persistence_requests counter
# TYPE persistence_requests counter
persistence_requests{operation="UpdateWorkflowExecution",service_name="history",namespace="bench"} ${update - 1}
persistence_requests{operation="UpdateWorkflowExecution",service_name="history",namespace="_unknown_"} 1
persistence_requests{operation="CreateWorkflowExecution",service_name="history"} ${create}
persistence_latency_bucket{operation="UpdateWorkflowExecution",service_name="history",le="0.001"} 3
persistence_latency_sum{operation="UpdateWorkflowExecution",service_name="history"} ${updateSeconds}
persistence_latency_sum{operation="CreateWorkflowExecution",service_name="history"} 2.5e-01
persistence_latency_count{operation="UpdateWorkflowExecution",service_name="history"} ${update}
persistence_errors{operation="UpdateWorkflowExecution",service_name="history"} 7
service_requests{operation="SignalWithStartWorkflowExecution"} 40
`;

describe("the dev server's persistence work from its metrics", () => {
  test('requests and latency are summed per operation over the other labels; other series are ignored', () => {
    expect(parsePersistenceMetrics(scrape(10, 4, 0.5))).toEqual({
      UpdateWorkflowExecution: { requests: 10, seconds: 0.5 },
      CreateWorkflowExecution: { requests: 4, seconds: 0.25 },
    });
  });

  test("a leg's work is the difference of two scrapes; an operation first seen after counts from zero", () => {
    const before = parsePersistenceMetrics(scrape(10, 4, 0.5));
    const after = {
      ...parsePersistenceMetrics(scrape(25, 4, 2)),
      GetWorkflowExecution: { requests: 3, seconds: 0.075 },
    };
    expect(persistenceDelta(before, after)).toEqual({
      UpdateWorkflowExecution: { requests: 15, seconds: 1.5 },
      GetWorkflowExecution: { requests: 3, seconds: 0.075 },
    });
  });

  test('the summary totals every operation, lists the largest first and reads as one line', () => {
    const summary = summarizePersistence(
      {
        GetNamespace: { requests: 5, seconds: 0.1 },
        UpdateWorkflowExecution: { requests: 15, seconds: 1.5 },
        GetWorkflowExecution: { requests: 5, seconds: 0.6 },
      },
      2,
    );
    expect(summary).toEqual({
      requests: 25,
      seconds: 2.2,
      top: [
        { operation: 'UpdateWorkflowExecution', requests: 15, seconds: 1.5 },
        { operation: 'GetNamespace', requests: 5, seconds: 0.1 },
      ],
    });
    expect(persistenceLine(summary)).toBe(
      '25 requests, 2.2 s in flight; UpdateWorkflowExecution 15 (1.5 s), GetNamespace 5 (0.1 s)',
    );
  });

  test("a measured section's work per unit, or nothing without metrics or units", () => {
    const before = { UpdateWorkflowExecution: { requests: 10, seconds: 1 } };
    const after = {
      UpdateWorkflowExecution: { requests: 40, seconds: 1.6 },
      GetWorkflowExecution: { requests: 10, seconds: 0.25 },
    };
    expect(persistencePerUnit(before, after, 10, 'wallet')).toBe(
      '; dev server persistence per wallet: 4.0 requests, 85 ms in flight (UpdateWorkflowExecution 3.0, GetWorkflowExecution 1.0)',
    );
    expect(persistencePerUnit(undefined, after, 10, 'wallet')).toBe('');
    expect(persistencePerUnit(before, after, 0, 'wallet')).toBe('');
  });

  test("the frontend's requests of one namespace by operation, its errors by type, and their difference", () => {
    const exposition = (queries: number, notFound: number) => `
service_requests{namespace="bench_eu",operation="QueryWorkflow",service_name="frontend"} ${queries}
service_requests{namespace="bench_eu",operation="QueryWorkflow",service_name="history"} 99
service_requests{namespace="other",operation="QueryWorkflow",service_name="frontend"} 50
service_requests{operation="ListWorkflowExecutions",namespace="bench_eu",service_name="frontend"} 4
service_error_with_type{error_type="serviceerror_NotFound",namespace="bench_eu",operation="QueryWorkflow",service_name="frontend"} ${notFound}
service_error_with_type{error_type="serviceerror_Internal",namespace="bench_eu",operation="QueryWorkflow",service_name="frontend"} 5
service_latency_count{namespace="bench_eu",operation="QueryWorkflow",service_name="frontend"} 12
`;
    // The exposition writes the namespace bench-eu as bench_eu.
    const before = parseFrontendRequests(exposition(10, 1), 'bench-eu');
    expect(before).toEqual({
      QueryWorkflow: { requests: 10, errors: { serviceerror_NotFound: 1, serviceerror_Internal: 5 } },
      ListWorkflowExecutions: { requests: 4, errors: {} },
    });
    expect(frontendDelta(before, parseFrontendRequests(exposition(17, 3), 'bench-eu'))).toEqual({
      QueryWorkflow: { requests: 7, errors: { serviceerror_NotFound: 2 } },
    });
  });
});
