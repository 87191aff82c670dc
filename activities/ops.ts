export { createReconcileActivities as createOpsActivities } from './operations/reconcile/activities';
