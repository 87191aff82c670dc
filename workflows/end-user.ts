/** Moved: the end-user process lives in workflows/end-user/. */
export { endUserWorkflow } from './end-user/workflow';
