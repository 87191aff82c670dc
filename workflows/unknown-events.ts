export { unknownEventsWorkflow } from './ramps/unknown-events/workflow';
