/** Moved: the quote process lives in workflows/quote/. */
export { quoteWorkflow } from './quote/workflow';
