export { offRampWorkflow } from './ramps/offramp/workflow';
