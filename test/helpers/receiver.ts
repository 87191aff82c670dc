/** A receiver configuration for tests: loopback, an ephemeral port, fresh secrets, the local certificate. */
import { randomUUID } from 'node:crypto';
import type { ReceiverConfig } from '../../src/config/receiver';
import { SecretString } from '../../src/secrets/secret-string';

export function testReceiverConfig(overrides: Partial<ReceiverConfig> = {}): ReceiverConfig {
  return {
    publicUrl: 'https://127.0.0.1:8443',
    transactionSecret: new SecretString(`tx-secret-${randomUUID()}`),
    orderSecret: new SecretString(`order-secret-${randomUUID()}`),
    port: 0,
    host: '127.0.0.1',
    tls: { local: true },
    ...overrides,
  };
}
