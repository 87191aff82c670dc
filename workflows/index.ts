// The worker bundles this file: every workflow the task queue runs is exported here.
export { endUserWorkflow } from './end-user';
