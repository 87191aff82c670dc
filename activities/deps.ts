import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { PayloadEncryptionConfig } from '../src/config/encryption';
import type { ClientWebhookConfig } from '../src/config/client-webhooks';
import type { OperationsConfig } from '../src/config/operations';
import type { ReceiverConfig } from '../src/config/receiver';
import type { ProcessIds } from '../src/domain/ids';
import type { OperatorClient } from '../src/operator/client';
import type { Ledger } from '../src/database/connection';

/** The configuration the activities read, loaded once by the entry point that builds them. */
export interface ActivityConfig {
  /**
   * The receiver whose URLs the account setup registers. A thunk, so that a worker that never runs the account
   * setup starts without the receiver's secrets.
   */
  receiver: () => ReceiverConfig;
  /** The gas wallet's minimums (checkGasWallet, assessGasWallet). */
  gas: OperationsConfig['gas'];
  /** The alert webhook (raiseAlert, resolveAlert). */
  alerts: OperationsConfig['alerts'];
  /** The account setup's workflow ID, the same the typed client uses. */
  processIds: ProcessIds;
  /** The payload encryption keys, for the end user pseudonym in the RampEndUserId search attribute. */
  encryption: Pick<PayloadEncryptionConfig, 'keys'>;
  /** Where outcome events go and what signs them (CLIENT_WEBHOOK_*); absent or empty: recorded, sent nowhere. */
  clientWebhooks?: ClientWebhookConfig;
}

/** What every activity factory receives: injected, so tests can pass a client pointed at the sandbox. */
export interface ActivityDeps {
  operator: OperatorClient;
  /** Used by activities that journal into a workflow (wallet creation) or route events. */
  temporal: Client;
  logger: Logger;
  config: ActivityConfig;
  /** The product's database: the processes' views, booked rows and outcome events are written here. */
  ledger: Ledger;
}
