/**
 * ops/alerts: the one place that holds open incidents (issue 6). Every alert goes through the alert activity,
 * which calls this workflow with update-with-start: `raiseAlert` opens an incident per key (kind + network, kind +
 * deposit, kind + wallet) or counts one more occurrence of an open one; `resolveAlert` closes it. The answer tells
 * the activity whether to notify the sinks (log line, webhook): one notification per incident, one resolved notice.
 *
 * No activities and no timers: the history is just the updates, and the workflow continues as new when it grows,
 * carrying the open incidents. The Web UI shows the open incidents as current details; RampStatus is
 * `incidents-open` or `all-clear` and RampNetworks lists the networks with an open incident.
 */
import { allHandlersFinished, condition, continueAsNew, setCurrentDetails, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { Networks, RampStatus } from '../src/temporal/search-attributes';
import { alertsStateQuery, raiseAlertUpdate, resolveAlertUpdate } from './messages';
import { type AlertsInput, type AlertsState, type Incident, type RaiseAlertRequest, RESOLVED_KEPT } from './ops-types';

const MAX_HISTORY_EVENTS = 2_000;

export async function alertsWorkflow(input: AlertsInput = {}): Promise<void> {
  const carried = input.carried;
  const state: AlertsState = {
    open: carried?.open ?? [],
    recentlyResolved: carried?.recentlyResolved ?? [],
    raisedTotal: carried?.raisedTotal ?? 0,
    resolvedTotal: carried?.resolvedTotal ?? 0,
    runs: (carried?.runs ?? 0) + 1,
    since: carried?.since ?? new Date().toISOString(),
  };
  let revision = 1;
  let published = 0;

  setHandler(alertsStateQuery, () => state);

  setHandler(
    raiseAlertUpdate,
    (request) => {
      const now = new Date().toISOString();
      const open = state.open.find((incident) => incident.key === request.key);
      revision += 1;
      if (open) {
        open.lastSeen = now;
        open.occurrences += 1;
        open.lastWorkflowId = request.workflowId;
        open.details = request.details;
        return { key: open.key, isNew: false, notify: open.openedBy === request.requestId, occurrences: open.occurrences };
      }
      const text = (name: string) => (typeof request.details[name] === 'string' ? (request.details[name]) : null);
      const incident: Incident = {
        key: request.key,
        kind: request.kind,
        network: text('network'),
        depositTransactionId: text('depositTransactionId'),
        message: request.message,
        workflowId: request.workflowId,
        lastWorkflowId: request.workflowId,
        details: request.details,
        firstSeen: now,
        lastSeen: now,
        occurrences: 1,
        openedBy: request.requestId,
      };
      state.open.push(incident);
      state.raisedTotal += 1;
      return { key: incident.key, isNew: true, notify: true, occurrences: 1 };
    },
    {
      validator: (request: RaiseAlertRequest) => {
        if (!request || typeof request.key !== 'string' || request.key === '' || typeof request.requestId !== 'string') {
          throw new Error('raiseAlert needs a key and a requestId');
        }
      },
    },
  );

  setHandler(resolveAlertUpdate, (request) => {
    const index = state.open.findIndex((incident) => incident.key === request.key);
    if (index < 0) {
      // A retry of the resolve that closed it notifies again (its webhook may have failed); others do nothing.
      const resolved = state.recentlyResolved.find((incident) => incident.key === request.key && incident.resolvedBy === request.requestId);
      return { key: request.key, wasOpen: false, notify: !!resolved, ...(resolved ? { incident: resolved } : {}) };
    }
    const [incident] = state.open.splice(index, 1);
    state.recentlyResolved.unshift({ ...incident!, resolvedAt: new Date().toISOString(), resolution: request.resolution, resolvedBy: request.requestId });
    state.recentlyResolved.splice(RESOLVED_KEPT);
    state.resolvedTotal += 1;
    revision += 1;
    return { key: request.key, wasOpen: true, notify: true, incident: incident! };
  });

  function publish(): void {
    published = revision;
    const lines = state.open.map((incident) => `- ${incident.key}: ${incident.message} (first ${incident.firstSeen}, last ${incident.lastSeen}, x${incident.occurrences})`);
    setCurrentDetails(
      state.open.length === 0
        ? `All clear: no open incidents (${state.raisedTotal} raised, ${state.resolvedTotal} resolved since ${state.since})`
        : `${state.open.length} open incident(s):\n${lines.join('\n')}`,
    );
    const networks = [...new Set(state.open.map((incident) => incident.network).filter((network): network is string => !!network))];
    upsertSearchAttributes([
      { key: RampStatus, value: state.open.length > 0 ? 'incidents-open' : 'all-clear' },
      { key: Networks, value: networks },
    ]);
  }

  for (;;) {
    await condition(() => revision !== published || workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > MAX_HISTORY_EVENTS);
    if (revision !== published) {
      publish();
      continue;
    }
    await condition(allHandlersFinished);
    await continueAsNew<typeof alertsWorkflow>({
      carried: {
        open: state.open,
        recentlyResolved: state.recentlyResolved,
        raisedTotal: state.raisedTotal,
        resolvedTotal: state.resolvedTotal,
        runs: state.runs,
        since: state.since,
      },
    });
  }
}
