/**
 * ops/alerts: the one place that holds open incidents. Every alert goes through the alert activity, which calls
 * this workflow with update-with-start: `raiseAlert` opens an incident per key (kind + network, kind + deposit,
 * kind + wallet) or counts one more occurrence of an open one; `resolveAlert` closes it. The answer tells the
 * activity whether to notify the sinks (log line, webhook): one notification per incident, one resolved notice.
 *
 * No activities and no timers: the history is just the updates, and the workflow continues as new when it grows,
 * carrying the open incidents. The Web UI shows the open incidents as current details; RampStatus is
 * `incidents-open` or `all-clear` and RampNetworks lists the networks with an open incident. Someone on call
 * acknowledges an incident or resolves it by hand (`acknowledgeIncident`, `resolveIncident`: who and why), through
 * the HTTP API or the typed client.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { shouldContinueAsNew } from '../../shared/continue-as-new';
import {
  acknowledge,
  carriedState,
  currentDetails,
  incidentActionIssue,
  newAlertsState,
  raise,
  resolve,
  resolveByPerson,
  searchAttributes,
} from './incidents';
import {
  acknowledgeIncidentUpdate,
  alertsStateQuery,
  raiseAlertUpdate,
  resolveAlertUpdate,
  resolveIncidentUpdate,
} from './messages';
import type { AlertsInput, IncidentAction, RaiseAlertRequest } from './types';
import { continueOnCurrentVersion, declareReleaseBehaviour, watchReleases } from '../../shared/versioning';

export async function alertsWorkflow(input: AlertsInput = {}): Promise<void> {
  const state = newAlertsState(input.carried, new Date().toISOString());
  // Every raise and every resolve that closes an incident is a new revision; the loop publishes the latest.
  let revision = 1;
  let published = 0;

  // ---- message handlers

  setHandler(alertsStateQuery, () => state);

  setHandler(
    raiseAlertUpdate,
    (request) => {
      revision += 1;
      return raise(state, request, new Date().toISOString());
    },
    {
      validator: (request: RaiseAlertRequest) => {
        if (
          !request ||
          typeof request.key !== 'string' ||
          request.key === '' ||
          typeof request.requestId !== 'string'
        ) {
          throw new Error('raiseAlert needs a key and a requestId');
        }
      },
    },
  );

  setHandler(resolveAlertUpdate, (request) => {
    const answer = resolve(state, request, new Date().toISOString());
    if (answer.wasOpen) revision += 1;
    return answer;
  });

  // A person's action on an open incident: refused before it is recorded when it names no open incident or lacks
  // who and why.
  const validAction = (action: IncidentAction) => {
    const issue = incidentActionIssue(state, action);
    if (issue) throw ApplicationFailure.create({ ...issue, nonRetryable: true });
  };

  setHandler(
    acknowledgeIncidentUpdate,
    (action) => {
      revision += 1;
      return acknowledge(state, action, new Date().toISOString());
    },
    { validator: validAction },
  );

  setHandler(
    resolveIncidentUpdate,
    (action) => {
      revision += 1;
      return resolveByPerson(state, action, new Date().toISOString());
    },
    { validator: validAction },
  );

  // ---- main loop: publish each revision; hand over to a new run when the history grows or a newer version is current

  const newerVersion = watchReleases();

  for (;;) {
    await condition(() => revision !== published || shouldContinueAsNew() || newerVersion());
    if (revision !== published) {
      published = revision;
      setCurrentDetails(currentDetails(state));
      upsertSearchAttributes(searchAttributes(state));
      continue;
    }
    await condition(allHandlersFinished);
    await continueOnCurrentVersion<typeof alertsWorkflow>()({ carried: carriedState(state) });
  }
}

declareReleaseBehaviour(alertsWorkflow, 'pinned, moves at continue-as-new');
