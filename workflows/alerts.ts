export { alertsWorkflow } from './operations/alerts/workflow';
