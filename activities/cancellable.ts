/** Moved to shared/cancellable.ts; re-exported for the importers not yet moved. */
export { cancellable } from './shared/cancellable';
