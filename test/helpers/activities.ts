import type { ActivityConfig } from '../../activities/deps';
import { loadOperationsConfig } from '../../src/config/operations';
import { loadReceiverConfig } from '../../src/config/receiver';
import { DEFAULT_PROCESS_IDS } from '../../src/domain/ids';

/**
 * The activities' configuration for tests: the defaults an empty environment gives (sandbox-mode receiver, default
 * gas minimums, no alert webhook, no encryption keys), with `overrides` on top. A stack that gives its client its
 * own process IDs passes the same ones here.
 */
export function testActivityConfig(overrides: Partial<ActivityConfig> = {}): ActivityConfig {
  const operations = loadOperationsConfig({});
  const receiver = loadReceiverConfig({});
  return {
    receiver: () => receiver,
    gas: operations.gas,
    alerts: operations.alerts,
    processIds: { ...DEFAULT_PROCESS_IDS },
    encryption: { keys: [] },
    ...overrides,
  };
}
