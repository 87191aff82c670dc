/**
 * Every workflow ID, schedule ID and operator wallet label, built (and, where something reads one back, parsed)
 * in one place. Workflow IDs are readable in the Web UI and are the one-run-per-process key: their formats must
 * never change, or a running process and a new delivery would stop meeting under the same ID. Workflow-safe.
 */
import type { AccountWalletRole, ResourceKind } from './vocabulary';

/** The workflow types the worker registers (workflows/index.ts exports exactly these functions). */
export const WORKFLOW_TYPES = {
  endUser: 'endUserWorkflow',
  accountSetup: 'accountSetupWorkflow',
  quote: 'quoteWorkflow',
  webhookRouter: 'webhookRouterWorkflow',
  offRamp: 'offRampWorkflow',
  onRamp: 'onRampWorkflow',
  unknownEvents: 'unknownEventsWorkflow',
  alerts: 'alertsWorkflow',
  gasMonitor: 'gasMonitorWorkflow',
  reconcile: 'reconcileWorkflow',
  outcomeRedelivery: 'outcomeRedeliveryWorkflow',
} as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[keyof typeof WORKFLOW_TYPES];

/**
 * The types whose runs outlive releases: each run stays pinned to its worker version, and the next one starts on the
 * current version (workflows/shared/versioning.ts). Every other type ends within days where it started.
 */
export const LONG_LIVED_WORKFLOW_TYPES: readonly WorkflowType[] = [
  WORKFLOW_TYPES.endUser,
  WORKFLOW_TYPES.accountSetup,
  WORKFLOW_TYPES.webhookRouter,
  WORKFLOW_TYPES.unknownEvents,
  WORKFLOW_TYPES.alerts,
];

// ---------------------------------------------------------------------------------------------- processes

/** What follows `prefix` in a workflow ID, or undefined for an ID without that prefix or with nothing after it. */
const afterPrefix = (prefix: string, workflowId: string): string | undefined =>
  workflowId.startsWith(prefix) && workflowId.length > prefix.length
    ? workflowId.slice(prefix.length)
    : undefined;

const END_USER_PREFIX = 'end-user/';
const OFF_RAMP_PREFIX = 'offramp/';
const ON_RAMP_PREFIX = 'onramp/';

export const endUserWorkflowId = (endUserId: string) => `${END_USER_PREFIX}${endUserId}`;

/** The end user an end-user/<id> workflow ID names, or undefined for any other workflow ID. */
export const endUserIdFromWorkflowId = (workflowId: string) => afterPrefix(END_USER_PREFIX, workflowId);

export const offRampWorkflowId = (depositTransactionId: string) =>
  `${OFF_RAMP_PREFIX}${depositTransactionId}`;

/** The deposit an offramp/<deposit> workflow ID names, or undefined for any other workflow ID. */
export const depositTransactionIdFromWorkflowId = (workflowId: string) =>
  afterPrefix(OFF_RAMP_PREFIX, workflowId);

export const onRampWorkflowId = (orderReference: string) => `${ON_RAMP_PREFIX}${orderReference}`;

/** The order reference an onramp/<reference> workflow ID names, or undefined for any other workflow ID. */
export const orderReferenceFromWorkflowId = (workflowId: string) => afterPrefix(ON_RAMP_PREFIX, workflowId);

/** One operator resource, as its router's lane and the receiver's logs name it: transaction/<id> or order/<id>. */
export const resourceKey = (kind: ResourceKind, resourceId: string) => `${kind}/${resourceId}`;

/**
 * The webhook routers per task queue. Four kept up with the bench's highest delivery rates where one or two fell
 * behind, and routed in bigger batches than sixteen (docs/performance.md).
 */
export const ROUTER_SHARDS = 4;

/**
 * The router a resource's deliveries go to: routes/<task queue>/<n>, n from a hash of kind/<id> (FNV-1a, stable
 * across processes and releases). The task queue keeps the routers of workers that share a namespace apart.
 */
export function routerWorkflowId(taskQueue: string, kind: ResourceKind, resourceId: string): string {
  let hash = 0x811c9dc5;
  for (const char of resourceKey(kind, resourceId))
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `routes/${taskQueue}/${hash % ROUTER_SHARDS}`;
}
export const UNKNOWN_EVENTS_WORKFLOW_ID = 'webhooks/unknown-events';
export const quoteWorkflowId = (uuid: string) => `quote/${uuid}`;
/** One redelivery of one outcome event: each request is its own workflow (the event keeps its webhook ID). */
export const outcomeRedeliveryWorkflowId = (webhookId: string, requestId: string) =>
  `outcome-redelivery/${webhookId}/${requestId}`;

// ---------------------------------------------------------------------------------------------- singletons

/** The IDs of the singleton processes: fixed, except that tests sharing one server pass their own in code. */
export interface ProcessIds {
  accountSetupWorkflowId: string;
}

export const DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID = 'account-setup';
export const DEFAULT_PROCESS_IDS: Readonly<ProcessIds> = {
  accountSetupWorkflowId: DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID,
};

/** The incident store workflow from before the incidents moved to the ledger (a release tells it to hand them over). */
export const DEFAULT_ALERTS_WORKFLOW_ID = 'ops/alerts';

// ---------------------------------------------------------------------------------------------- schedules

export const GAS_MONITOR_SCHEDULE_ID = 'gas-monitor';
export const RECONCILE_SCHEDULE_ID = 'reconcile';

/** The workflow a schedule starts: ops/<prefix><name> (the prefix keeps tests sharing a server apart). */
export const scheduledWorkflowId = (prefix: string, name: string) => `ops/${prefix}${name}`;

/** A reconciliation run started by hand (npm run reconcile), named by when it started. */
export const manualReconcileWorkflowId = (at: Date) => `ops/reconcile-manual-${at.toISOString()}`;

// ---------------------------------------------------------------------------------------------- operator labels

/** The operator's externalUserId of an end user's deposit wallet (operators close wallets by this label). */
export const depositWalletLabel = (endUserId: string) => `end-user:${endUserId}`;

/** ASSUMED labels that tell the account's two wallets apart (the spec: "told apart by externalUserId"). */
export const ACCOUNT_WALLET_LABELS = {
  master: 'ramp-orchestrator/master',
  gas: 'ramp-orchestrator/gas',
} as const satisfies Record<AccountWalletRole, string>;
