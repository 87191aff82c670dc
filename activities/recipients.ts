/** Moved: activities/account-setup/recipients.ts. */
export { createRecipientActivities, type RecipientView } from './account-setup/recipients';
