import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { OperatorClient } from '../src/operator/client';

/** What every activity factory receives: injected, so tests can pass a client pointed at the sandbox. */
export interface ActivityDeps {
  operator: OperatorClient;
  /** Used by activities that journal into a workflow (wallet creation) or route events. */
  temporal: Client;
  logger: Logger;
}
