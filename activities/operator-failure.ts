/** Moved to shared/operator-failure.ts; re-exported for the importers not yet moved. */
export { callOperator } from './shared/operator-failure';
