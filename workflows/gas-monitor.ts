export { gasMonitorWorkflow } from './operations/gas-monitor/workflow';
