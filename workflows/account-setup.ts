/** Moved: the account setup lives in workflows/account-setup/. */
export { accountSetupWorkflow } from './account-setup/workflow';
