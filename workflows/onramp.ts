export { onRampWorkflow } from './ramps/onramp/workflow';
