/** Moved: activities/quote/activities.ts. */
export { createQuoteActivities, toOperatorQuoteRequest } from './quote/activities';
