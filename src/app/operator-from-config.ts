import type { Logger } from 'pino';
import { loadOperatorConfig, type OperatorConfig } from '../config/operator';
import { OperatorClient } from '../operator/client';

/** The operator client for the worker: the configured operator, or the local sandbox when one was started. */
export function createOperatorClient(logger: Logger, overrides: Record<string, string | undefined> = {}): {
  client: OperatorClient;
  config: OperatorConfig;
} {
  const config = loadOperatorConfig({ ...process.env, ...overrides });
  return { client: new OperatorClient({ config, logger }), config };
}
