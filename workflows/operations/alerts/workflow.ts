/**
 * ops/alerts: the incident store as it ran before the incidents moved to the ledger (src/ledger/incidents.ts; why:
 * docs/architecture.md, "Alerts: one incident store"). Nothing new starts it; a run still holding incidents (a 1.0
 * run, or one continued from an older version) hands them to the ledger, forwards whatever it is still asked, and
 * ends.
 *
 * Runs replaying a 1.0 history keep the old behaviour (`patched(INCIDENTS_IN_LEDGER)` false): `raiseAlert` opens an
 * incident per key or counts one more occurrence of an open one, `resolveAlert` closes it, `acknowledgeIncident` and
 * `resolveIncident` are a person's actions; the answer tells the raising activity whether to notify. The loop
 * publishes each change (current details, RampStatus, RampNetworks) and continues as new with the open incidents.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { createIncidentHandOverActivities } from '../../../activities/operations/alerts/hand-over';
import { shouldContinueAsNew } from '../../shared/continue-as-new';
import {
  acknowledge,
  carriedState,
  currentDetails,
  INCIDENT_NOT_OPEN,
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
import type { AlertsInput, AlertsState, IncidentAction, RaiseAlertRequest } from './types';
import { continueOnCurrentVersion, declareReleaseBehaviour, watchReleases } from '../../shared/versioning';

/** A run that hands its incidents to the ledger and forwards what it is asked there: every run but a 1.0 replay. */
export const INCIDENTS_IN_LEDGER = 'incidents-in-ledger';

/** The ledger's activities are retried until the database takes them: nothing held may be lost. */
const ledger = proxyActivities<ReturnType<typeof createIncidentHandOverActivities>>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '1m', backoffCoefficient: 2 },
});

/** What the run's handlers and its loop share. */
interface AlertsRun {
  readonly state: AlertsState;
  /** Every raise and every resolve that closes an incident is a new revision; the loop publishes the latest. */
  revision: number;
  /** Set once the run hands over: from then on the ledger holds the incidents and answers every request. */
  handOver: Promise<void> | undefined;
}

export async function alertsWorkflow(input: AlertsInput = {}): Promise<void> {
  const run: AlertsRun = {
    state: newAlertsState(input.carried, new Date().toISOString()),
    revision: 1,
    handOver: undefined,
  };
  let published = 0;
  setMessageHandlers(run);

  // ---- main loop: publish each revision; hand over to the ledger, or (a 1.0 replay) to a new run when the history
  // grows or a newer version is current

  const newerVersion = watchReleases();
  // A run continued from one that held incidents hands them over at once (the loop waits for it).
  if (input.carried) void inLedger(run);

  for (;;) {
    await condition(
      () =>
        run.handOver !== undefined || run.revision !== published || shouldContinueAsNew() || newerVersion(),
    );
    if (run.handOver) {
      await run.handOver;
      await condition(allHandlersFinished);
      return;
    }
    if (run.revision !== published) {
      published = run.revision;
      setCurrentDetails(currentDetails(run.state));
      upsertSearchAttributes(searchAttributes(run.state));
      continue;
    }
    if (inLedger(run)) continue;
    await condition(allHandlersFinished);
    await continueOnCurrentVersion<typeof alertsWorkflow>()({ carried: carriedState(run.state) });
  }
}

/** The store's query and updates: answered by this run until it hands over, by the ledger from then on. */
function setMessageHandlers(run: AlertsRun): void {
  const { state } = run;
  setHandler(alertsStateQuery, () => state);

  setHandler(
    raiseAlertUpdate,
    (request) => {
      if (inLedger(run)) return forward(run, () => ledger.forwardRaiseAlert(request));
      run.revision += 1;
      return raise(state, request, new Date().toISOString());
    },
    { validator: validRaiseRequest },
  );

  setHandler(resolveAlertUpdate, (request) => {
    if (inLedger(run)) return forward(run, () => ledger.forwardResolveAlert(request));
    const answer = resolve(state, request, new Date().toISOString());
    if (answer.wasOpen) run.revision += 1;
    return answer;
  });

  setHandler(
    acknowledgeIncidentUpdate,
    (action) => {
      if (inLedger(run)) return forward(run, () => ledger.forwardAcknowledgeIncident(action));
      run.revision += 1;
      return acknowledge(state, action, new Date().toISOString());
    },
    { validator: (action: IncidentAction) => validAction(run, action) },
  );

  setHandler(
    resolveIncidentUpdate,
    (action) => {
      if (inLedger(run)) return forward(run, () => ledger.forwardResolveIncident(action));
      run.revision += 1;
      return resolveByPerson(state, action, new Date().toISOString());
    },
    { validator: (action: IncidentAction) => validAction(run, action) },
  );
}

function validRaiseRequest(request: RaiseAlertRequest): void {
  if (
    !request ||
    typeof request.key !== 'string' ||
    request.key === '' ||
    typeof request.requestId !== 'string'
  ) {
    throw new Error('raiseAlert needs a key and a requestId');
  }
}

/**
 * A person's action on an open incident: refused before it is recorded when it lacks who and why, or names none of
 * the open incidents this run holds. A run that holds none (handed over, or new) leaves that to the ledger.
 */
function validAction(run: AlertsRun, action: IncidentAction): void {
  const issue = incidentActionIssue(run.state, action);
  const holdsIncidents = !run.handOver && run.state.open.length > 0;
  if (issue && (issue.type !== INCIDENT_NOT_OPEN || holdsIncidents))
    throw ApplicationFailure.create({ ...issue, nonRetryable: true });
}

/** The run's hand-over, begun the first time it is asked for in any run but a 1.0 replay. */
function inLedger(run: AlertsRun): Promise<void> | undefined {
  if (!run.handOver && patched(INCIDENTS_IN_LEDGER)) run.handOver = handToLedger(run.state);
  return run.handOver;
}

/** A request answered by the ledger, once the hand-over is done. */
async function forward<T>(run: AlertsRun, call: () => Promise<T>): Promise<T> {
  await run.handOver;
  try {
    return await call();
  } catch (error) {
    // Answered as the store itself answers: the ledger's refusal, not the activity's failure around it.
    const cause = error instanceof ActivityFailure ? error.cause : undefined;
    if (cause instanceof ApplicationFailure)
      throw ApplicationFailure.create({
        type: cause.type ?? undefined,
        message: cause.message,
        nonRetryable: true,
      });
    throw error;
  }
}

/** Hands the incidents this run holds to the ledger, then shows that the run holds none. */
async function handToLedger(state: AlertsState): Promise<void> {
  if (state.open.length > 0 || state.recentlyResolved.length > 0)
    await ledger.takeOverIncidents({ open: state.open, recentlyResolved: state.recentlyResolved });
  state.open.splice(0);
  state.recentlyResolved.splice(0);
  setCurrentDetails('The incidents are kept in the ledger: GET /v1/alerts');
  upsertSearchAttributes(searchAttributes(state));
}

declareReleaseBehaviour(alertsWorkflow, 'pinned, moves at continue-as-new');
