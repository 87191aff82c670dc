/**
 * Releases as Temporal sees them (docs/deployment.md, "Releasing a change"): the versions of the task queue's Worker
 * Deployment and what still runs on each; making one current (a release, or a rollback to one still running), after
 * which the long-lived runs left on other versions are told to hand over; and whether a version has drained, so that
 * its workers may stop. `npm run release` (src/entry/release.ts) and npm start use it.
 */
import { type Client, isGrpcServiceError, WorkflowNotFoundError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { WorkerVersion } from '../config/worker-version';
import { DEFAULT_ALERTS_WORKFLOW_ID, LONG_LIVED_WORKFLOW_TYPES } from '../domain/ids';
import { moveToCurrentVersionSignal } from '../../workflows/shared/messages';

const { WorkerDeploymentVersionStatus: Status, VersionDrainageStatus: Drainage } = temporal.api.enums.v1;
/** gRPC status codes Temporal answers with. */
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const grpcCode = (error: unknown): number | undefined =>
  isGrpcServiceError(error) ? Number(error.code) : undefined;

/** How a release command names itself to Temporal (the deployment's routing changes record it). */
export const RELEASE_IDENTITY = 'ramp-orchestrator release';
/** How long a release waits for the new version's workers to poll: they start just before it (an image to pull). */
export const WORKERS_WAIT_MS = 10 * 60_000;
/** How long a release waits for the long-lived runs to hand over: each finishes the step it is in first. */
export const HAND_OVER_WAIT_MS = 10 * 60_000;
/** Signals in flight at once while long-lived runs are told to hand over. */
const SIGNALS_IN_FLIGHT = 16;
const RETRY_EVERY_MS = 1_000;

export type VersionState = 'current' | 'ramping' | 'draining' | 'drained' | 'inactive';

export interface VersionReport {
  buildId: string;
  state: VersionState;
  /** Workflows running on it (visibility). */
  running: number;
  /** Of those, long-lived runs, which move at their next continue-as-new. */
  longLived: number;
}

export interface DeploymentReport {
  deploymentName: string;
  /** The current version's build ID; null while none was made current (new workflows wait). */
  current: string | null;
  /** Newest first. */
  versions: VersionReport[];
}

/** How visibility names a version (TemporalWorkerDeploymentVersion). */
const versionKey = (version: WorkerVersion) => `${version.deploymentName}:${version.buildId}`;
const quoted = (value: string) => `'${value.replaceAll("'", "\\'")}'`;
const longLivedClause = `WorkflowType IN (${LONG_LIVED_WORKFLOW_TYPES.map(quoted).join(', ')})`;
const runningOn = (version: WorkerVersion) =>
  `TemporalWorkerDeploymentVersion = ${quoted(versionKey(version))} AND ExecutionStatus = 'Running'`;

const STATES: Partial<Record<number, VersionState>> = {
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT]: 'current',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING]: 'ramping',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING]: 'draining',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED]: 'drained',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The deployment as Temporal describes it; undefined while no worker of it has polled yet. */
async function describeDeployment(client: Client, deploymentName: string) {
  try {
    const { workerDeploymentInfo } = await client.workflowService.describeWorkerDeployment({
      namespace: client.options.namespace,
      deploymentName,
    });
    return workerDeploymentInfo ?? undefined;
  } catch (error) {
    if (grpcCode(error) === NOT_FOUND) return undefined;
    throw error;
  }
}

/** The current version's build ID, or null while none was made current. */
export async function currentBuildId(client: Client, deploymentName: string): Promise<string | null> {
  const info = await describeDeployment(client, deploymentName);
  return info?.routingConfig?.currentDeploymentVersion?.buildId || null;
}

/** Every version of the deployment, what state Temporal gives it, and how many workflows still run on it. */
export async function deploymentReport(client: Client, deploymentName: string): Promise<DeploymentReport> {
  const info = await describeDeployment(client, deploymentName);
  const summaries = [...(info?.versionSummaries ?? [])].sort(
    (a, b) => Number(b.createTime?.seconds ?? 0) - Number(a.createTime?.seconds ?? 0),
  );
  const versions = await Promise.all(
    summaries.map(async (summary): Promise<VersionReport> => {
      const version = { deploymentName, buildId: summary.deploymentVersion?.buildId ?? '' };
      const [running, longLived] = await Promise.all([
        client.workflow.count(runningOn(version)),
        client.workflow.count(`${runningOn(version)} AND ${longLivedClause}`),
      ]);
      return {
        buildId: version.buildId,
        state: STATES[summary.status ?? 0] ?? 'inactive',
        running: running.count,
        longLived: longLived.count,
      };
    }),
  );
  return {
    deploymentName,
    current: info?.routingConfig?.currentDeploymentVersion?.buildId || null,
    versions,
  };
}

export interface MakeCurrentOptions {
  /** How long to wait for the version's workers to poll; default WORKERS_WAIT_MS. */
  workersWaitMs?: number;
  /** How long to wait for the long-lived runs on other versions to hand over; default HAND_OVER_WAIT_MS. */
  handOverWaitMs?: number;
  log?: (line: string) => void;
}

export interface MadeCurrent {
  /** The build ID that was current before; null when none was. */
  previous: string | null;
  /** Long-lived runs on other versions told to hand over. */
  told: number;
  /** Long-lived runs still on other versions when the wait ended (each moves once its step ends). */
  stillElsewhere: number;
}

/**
 * Makes `version` current: new workflows start on it at once, and every pinned run stays where it started. Temporal
 * refuses a version none of whose workers polls the task queue, so this waits for them (a release starts them just
 * before). Then each long-lived run on another version is told to hand over, and this waits until none is left there;
 * an incident store workflow still running is told to hand its incidents to the ledger.
 */
export async function makeCurrent(
  client: Client,
  version: WorkerVersion,
  options: MakeCurrentOptions = {},
): Promise<MadeCurrent> {
  const log = options.log ?? (() => undefined);
  const workersDeadline = Date.now() + (options.workersWaitMs ?? WORKERS_WAIT_MS);
  let previous: string | null;
  for (let waiting = false; ; waiting = true) {
    try {
      const answer = await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: client.options.namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        identity: RELEASE_IDENTITY,
      });
      previous = answer.previousDeploymentVersion?.buildId || null;
      break;
    } catch (error) {
      // Not found: no worker of the deployment or version polled yet; failed precondition: none polls now.
      const code = grpcCode(error);
      const notYet = code === NOT_FOUND || code === FAILED_PRECONDITION;
      if (!notYet || Date.now() > workersDeadline) throw error;
      if (!waiting)
        log(
          `waiting for the workers of ${version.buildId} to poll ${version.deploymentName} (Temporal: ${(error as Error).message})`,
        );
      await sleep(RETRY_EVERY_MS);
    }
  }
  log(`${version.buildId} is current${previous && previous !== version.buildId ? ` (was ${previous})` : ''}`);
  const { told, stillElsewhere } = await handOverLongLived(client, version, options.handOverWaitMs, log);
  await handOverIncidentStore(client, log);
  return { previous, told, stillElsewhere };
}

/**
 * The incident store workflow from before the ledger held the incidents: a 1.0 run is unversioned, so the hand-over
 * above does not list it, and nothing else wakes it. Told to move, it runs on the current version, whose code hands
 * its incidents to the ledger and ends it (workflows/operations/alerts/workflow.ts).
 */
async function handOverIncidentStore(client: Client, log: (line: string) => void): Promise<void> {
  const store = client.workflow.getHandle(DEFAULT_ALERTS_WORKFLOW_ID);
  try {
    if ((await store.describe()).status.name !== 'RUNNING') return;
    await store.signal(moveToCurrentVersionSignal);
    log(`told ${DEFAULT_ALERTS_WORKFLOW_ID} to hand its incidents to the ledger`);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}

/** Tells each long-lived run on another version of the deployment to hand over, once per run, until none is left. */
async function handOverLongLived(
  client: Client,
  current: WorkerVersion,
  waitMs = HAND_OVER_WAIT_MS,
  log: (line: string) => void,
): Promise<{ told: number; stillElsewhere: number }> {
  const query =
    `TemporalWorkerDeployment = ${quoted(current.deploymentName)} AND ` +
    `TemporalWorkerDeploymentVersion != ${quoted(versionKey(current))} AND ExecutionStatus = 'Running' AND ` +
    longLivedClause;
  const deadline = Date.now() + waitMs;
  const told = new Set<string>();
  for (;;) {
    const runs: Array<{ workflowId: string; runId: string }> = [];
    for await (const run of client.workflow.list({ query })) runs.push(run);
    const untold = runs.filter((run) => !told.has(run.runId));
    for (let start = 0; start < untold.length; start += SIGNALS_IN_FLIGHT) {
      await Promise.all(
        untold.slice(start, start + SIGNALS_IN_FLIGHT).map(async (run) => {
          try {
            await client.workflow.getHandle(run.workflowId, run.runId).signal(moveToCurrentVersionSignal);
          } catch (error) {
            // That run has ended meanwhile (it handed over already).
            if (!(error instanceof WorkflowNotFoundError)) throw error;
          }
          told.add(run.runId);
        }),
      );
    }
    if (untold.length > 0) log(`told ${untold.length} long-lived runs on other versions to hand over`);
    if (runs.length === 0 || Date.now() > deadline) {
      if (runs.length > 0)
        log(
          `${runs.length} long-lived runs are still on other versions; each moves once its current step ends`,
        );
      return { told: told.size, stillElsewhere: runs.length };
    }
    await sleep(RETRY_EVERY_MS);
  }
}

/**
 * Whether a version's workers may stop: it is neither current nor ramping, and no workflow runs on it any more
 * (Temporal's own drainage status says so, and visibility counts none). The reason when not.
 */
export async function drainage(
  client: Client,
  version: WorkerVersion,
): Promise<{ drained: boolean; reason: string }> {
  const info = await describeDeployment(client, version.deploymentName);
  const summary = info?.versionSummaries?.find(
    (candidate) => candidate.deploymentVersion?.buildId === version.buildId,
  );
  if (!summary) return { drained: true, reason: `Temporal knows no version ${version.buildId}` };
  const state = STATES[summary.status ?? 0] ?? 'inactive';
  if (state === 'current' || state === 'ramping')
    return { drained: false, reason: `${version.buildId} is ${state}` };
  const { count } = await client.workflow.count(runningOn(version));
  if (count > 0) return { drained: false, reason: `${count} workflows still run on ${version.buildId}` };
  const drained = state === 'inactive' || summary.drainageStatus === Drainage.VERSION_DRAINAGE_STATUS_DRAINED;
  return {
    drained,
    reason: drained
      ? `no workflow runs on ${version.buildId} any more`
      : `Temporal has not yet seen ${version.buildId} drained (it checks every few minutes)`,
  };
}
