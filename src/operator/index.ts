/** Public API of the operator client. */
export { OperatorClient, MAX_PAGES } from './client';
export type { OperatorClientOptions, PageRequest, RecipientPageResult, WalletAddressesPageResult } from './client';
export {
  OperatorError,
  OperatorResponseError,
  OperatorValidationError,
  isRetryable,
  isRetryableStatus,
  describeIssues,
} from './errors';
export type { OperatorErrorCode, OperatorErrorOptions } from './errors';
export { OperatorTransport, resolveRoute } from './http';
export type { FetchLike, OperatorRequest, OperatorResponse, TransportOptions } from './http';
export { SessionManager } from './session';
export type { AuthHeaders, SessionManagerOptions, SessionStatus } from './session';
export * from './schemas';
export * from './assumptions';
export { loadOperatorConfig, SecretString } from '../config/operator';
export type { OperatorConfig } from '../config/operator';
