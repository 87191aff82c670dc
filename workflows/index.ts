// The worker bundles this file: every workflow the task queue runs is exported here.
export { endUserWorkflow } from './end-user/workflow';
export { accountSetupWorkflow } from './account-setup/workflow';
export { quoteWorkflow } from './quote/workflow';
export { webhookRouterWorkflow } from './ramps/router/workflow';
export { offRampWorkflow } from './ramps/offramp/workflow';
export { onRampWorkflow } from './ramps/onramp/workflow';
export { unknownEventsWorkflow } from './ramps/unknown-events/workflow';
export { alertsWorkflow } from './operations/alerts/workflow';
export { gasMonitorWorkflow } from './operations/gas-monitor/workflow';
export { reconcileWorkflow } from './operations/reconcile/workflow';
export { outcomeRedeliveryWorkflow } from './outcomes/redelivery/workflow';
