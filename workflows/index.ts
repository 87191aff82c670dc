// The worker bundles this file: every workflow the task queue runs is exported here.
export { endUserWorkflow } from './end-user';
export { accountSetupWorkflow } from './account-setup';
export { quoteWorkflow } from './quote';
export { webhookRouterWorkflow } from './webhook-router';
export { offRampWorkflow } from './offramp';
export { onRampWorkflow } from './onramp';
export { unknownEventsWorkflow } from './unknown-events';
// ---- operations (issue 6)
export { alertsWorkflow } from './alerts';
export { gasMonitorWorkflow } from './gas-monitor';
export { reconcileWorkflow } from './reconcile';
// ---- outcome events
export { outcomeRedeliveryWorkflow } from './outcomes/redelivery/workflow';
