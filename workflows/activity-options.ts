/** Moved to shared/activity-options.ts; re-exported for the importers not yet moved. */
export { operatorActivityOptions } from './shared/activity-options';
