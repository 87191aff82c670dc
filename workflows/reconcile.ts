export { reconcileWorkflow } from './operations/reconcile/workflow';
