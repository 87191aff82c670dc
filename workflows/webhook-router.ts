export { webhookRouterWorkflow } from './ramps/router/workflow';
