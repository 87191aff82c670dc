/**
 * Temporal Cloud's billable actions counted on small hand-made histories, one rule at a time, in the JSON form a
 * history is exported in (read through the SDK's own conversion, as a fetched history arrives).
 */
import { historyFromJSON } from '../../helpers/histories';
import {
  addCounts,
  billedEvents,
  countRun,
  outsideHistories,
  totalActions,
} from '../../../bench/lib/billable-actions';

const T0 = Date.parse('2026-11-28T10:00:00Z');
const payload = { metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'IngiCg==' };

/** One run's history: each entry its event type (PascalCase) and attributes; event N written N seconds after T0. */
function history(...entries: [type: string, attributes?: Record<string, unknown>][]) {
  return historyFromJSON({
    events: entries.map(([type, attributes], index) => ({
      eventId: String(index + 1),
      eventTime: new Date(T0 + (index + 1) * 1000).toISOString(),
      eventType: type,
      [`${type[0]!.toLowerCase()}${type.slice(1)}EventAttributes`]: attributes ?? {},
    })),
  }).events!;
}

const started = (attributes: Record<string, unknown> = {}) =>
  ['WorkflowExecutionStarted', { workflowType: { name: 'w' }, ...attributes }] as [
    string,
    Record<string, unknown>,
  ];
const task: [string][] = [['WorkflowTaskScheduled'], ['WorkflowTaskStarted'], ['WorkflowTaskCompleted']];

describe('billable actions from histories', () => {
  test('a client start is one; the signal of a signal-with-start adds none; every later signal is one', () => {
    const signalWithStart = history(started(), ['WorkflowExecutionSignaled', { signalName: 's' }], ...task, [
      'WorkflowExecutionSignaled',
      { signalName: 's' },
    ]);
    expect(countRun(signalWithStart).actions).toEqual({ 'workflow start': 1, signal: 1 });
    // A signal-with-start to a running workflow is an ordinary signal of its history.
    const started2 = history(started(), ...task, ['WorkflowExecutionSignaled', { signalName: 's' }]);
    expect(countRun(started2).actions).toEqual({ 'workflow start': 1, signal: 1 });
  });

  test('an update-with-start is the start and the update; every accepted update is one', () => {
    const run = history(
      started(),
      ...task,
      ['WorkflowExecutionUpdateAccepted', { protocolInstanceId: 'u1' }],
      ['WorkflowExecutionUpdateCompleted', {}],
      ['WorkflowExecutionUpdateAccepted', { protocolInstanceId: 'u2' }],
    );
    expect(countRun(run).actions).toEqual({ 'workflow start': 1, update: 2 });
  });

  test('timers, a condition with a timeout among them, and each upsert but a versioning-only one', () => {
    const run = history(
      started(),
      ...task,
      ['TimerStarted', { timerId: '1' }],
      ['TimerStarted', { timerId: '2' }],
      ['UpsertWorkflowSearchAttributes', { searchAttributes: { indexedFields: { A: payload, B: payload } } }],
      [
        'UpsertWorkflowSearchAttributes',
        { searchAttributes: { indexedFields: { TemporalChangeVersion: payload } } },
      ],
      ['MarkerRecorded', { markerName: 'core_patch', workflowTaskCompletedEventId: '4' }],
    );
    expect(countRun(run).actions).toEqual({ 'workflow start': 1, timer: 2, 'search attribute upsert': 1 });
  });

  test("an activity is one when scheduled and one per retry: its started event's attempt number in all", () => {
    const run = history(
      started(),
      ...task,
      ['ActivityTaskScheduled', { activityId: '1' }],
      ['ActivityTaskStarted', { scheduledEventId: '5', attempt: 3 }],
      ['ActivityTaskCompleted', { scheduledEventId: '5' }],
      ['ActivityTaskScheduled', { activityId: '2' }],
      ['ActivityTaskStarted', { scheduledEventId: '8', attempt: 1 }],
      // Scheduled, not yet started: its first attempt.
      ['ActivityTaskScheduled', { activityId: '3' }],
    );
    expect(countRun(run).actions).toEqual({ 'workflow start': 1, activity: 3, 'activity retry': 2 });
  });

  test("local activities are one per workflow task that recorded any, plus the task's later attempts up to 100", () => {
    const marker = (task: string) =>
      ['MarkerRecorded', { markerName: 'core_local_activity', workflowTaskCompletedEventId: task }] as [
        string,
        Record<string, unknown>,
      ];
    const run = history(
      started(),
      ...task,
      marker('4'),
      marker('4'),
      marker('4'),
      ['WorkflowTaskScheduled'],
      ['WorkflowTaskStarted'],
      ['WorkflowTaskCompleted', { meteringMetadata: { nonfirstLocalActivityExecutionAttempts: 150 } }],
      marker('10'),
    );
    expect(countRun(run).actions).toEqual({ 'workflow start': 1, 'local activities': 102 });
  });

  test('a child is two on its parent and none on its own start; a signal between workflows is one, on the sender', () => {
    const parent = history(
      started(),
      ...task,
      ['StartChildWorkflowExecutionInitiated', { workflowId: 'child' }],
      ['SignalExternalWorkflowExecutionInitiated', { signalName: 's' }],
    );
    const child = history(
      started({ parentWorkflowExecution: { workflowId: 'parent', runId: 'r' } }),
      ...task,
      ['WorkflowExecutionSignaled', { signalName: 's', externalWorkflowExecution: { workflowId: 'parent' } }],
    );
    expect(countRun(parent).actions).toEqual({ 'workflow start': 1, 'child workflow': 2, signal: 1 });
    expect(countRun(child).actions).toEqual({});
  });

  test("a continue-as-new is its new run's start; a run a schedule started is three", () => {
    const first = history(started(), ...task, [
      'WorkflowExecutionContinuedAsNew',
      { newExecutionRunId: 'r2' },
    ]);
    const next = history(started({ continuedExecutionRunId: 'r1' }), ...task);
    const scheduled = history(
      started({ searchAttributes: { indexedFields: { TemporalScheduledById: payload } } }),
    );
    expect(totalActions(addCounts(countRun(first).actions, countRun(next).actions))).toBe(2);
    expect(countRun(scheduled).actions).toEqual({ 'workflow start': 3 });
  });

  test('the options updated are one; completions, failures and workflow tasks are none', () => {
    const run = history(
      started(),
      ...task,
      ['WorkflowExecutionOptionsUpdated', {}],
      ['WorkflowTaskScheduled'],
      ['WorkflowTaskStarted'],
      ['WorkflowTaskFailed', {}],
      ['WorkflowExecutionCompleted', {}],
    );
    expect(countRun(run).actions).toEqual({ 'workflow start': 1, 'options update': 1 });
    expect(billedEvents(run).map((billed) => billed.timeMs)).toEqual([T0 + 1000, T0 + 5000]);
  });

  test('within a window only the actions and events written in it count', () => {
    const run = history(
      started(),
      ...task,
      ['TimerStarted', { timerId: '1' }],
      ['TimerFired', { timerId: '1' }],
    );
    expect(countRun(run)).toEqual({ actions: { 'workflow start': 1, timer: 1 }, events: 6 });
    expect(countRun(run, { fromMs: T0 + 2000, toMs: T0 + 6000 })).toEqual({
      actions: { timer: 1 },
      events: 4,
    });
  });
});

describe('billable work outside histories', () => {
  test('queries a worker received, heartbeats that reached the server, and visibility calls beside', () => {
    expect(
      outsideHistories({
        // Two refused by the frontend itself (no such workflow, no worker in time); one the worker failed, received.
        QueryWorkflow: {
          requests: 8,
          errors: { serviceerror_NotFound: 1, serviceerror_DeadlineExceeded: 1, serviceerror_QueryFailed: 1 },
        },
        RecordActivityTaskHeartbeat: { requests: 3, errors: { serviceerror_NotFound: 1 } },
        RecordActivityTaskHeartbeatById: { requests: 1, errors: {} },
        ListWorkflowExecutions: { requests: 4, errors: {} },
        CountWorkflowExecutions: { requests: 2, errors: {} },
        ScanWorkflowExecutions: { requests: 1, errors: {} },
        SignalWorkflowExecution: { requests: 9, errors: {} },
      }),
    ).toEqual({ actions: { query: 6, 'activity heartbeat': 4 }, visibilityCalls: 7 });
    expect(outsideHistories({})).toEqual({ actions: {}, visibilityCalls: 0 });
  });
});
