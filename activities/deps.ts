import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { ReceiverConfig } from '../src/config/receiver';
import type { OperatorClient } from '../src/operator/client';
import type { RampActivityConfig } from '../src/config/ramps';
import type { PayloadEncryptionConfig } from '../src/config/encryption';
import type { ClientWebhookConfig } from '../src/config/client-webhooks';

/** What every activity factory receives: injected, so tests can pass a client pointed at the sandbox. */
export interface ActivityDeps {
  operator: OperatorClient;
  /** Used by activities that journal into a workflow (wallet creation) or route events. */
  temporal: Client;
  logger: Logger;
  /** The receiver whose URLs the account setup registers; loaded from the environment when absent. */
  receiver?: ReceiverConfig;
  /** Gas wallet, shortfall thresholds and alert webhook of the ramp activities (issue 5); loaded from the environment when absent. */
  ramps?: RampActivityConfig;
  /**
   * The payload encryption keys, for the end user pseudonym in the RampEndUserId search attribute
   * (src/temporal/end-user-pseudonym.ts); loaded from PAYLOAD_ENCRYPTION_KEYS when absent.
   */
  encryption?: Pick<PayloadEncryptionConfig, 'keys'>;
  /** Where outcome events go and what signs them (CLIENT_WEBHOOK_*); absent: they are recorded and sent nowhere. */
  clientWebhooks?: ClientWebhookConfig;
}
