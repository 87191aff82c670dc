export {
  isOperatorNotFound,
  unknownResourceRetry,
  unknownResourceTimeoutMs,
} from './ramps/router/unknown-resource';
