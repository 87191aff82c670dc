/** End user IDs become workflow IDs people type into the Web UI; the rule lives in src/validation/identifiers.ts. */
export { endUserIdSchema, parseEndUserId } from '../validation/identifiers';

export const endUserWorkflowId = (endUserId: string) => `end-user/${endUserId}`;
export const ACCOUNT_SETUP_WORKFLOW_ID = 'account-setup';
