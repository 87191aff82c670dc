import { loadReceiverConfig, redactedRecipientUrl } from '../../../src/config/receiver';
import { directForwardBudgetMs } from '../../../src/webhooks/receiver';

describe('recipient URLs in logs and history', () => {
  test('ours keep their path up to the secret; anyone else keeps only the origin', () => {
    expect(
      redactedRecipientUrl(
        'https://hooks.example/prefix/webhooks/transactions/s3cr3t-segment-0123456789abcdef',
      ),
    ).toBe('https://hooks.example/prefix/webhooks/transactions/[REDACTED]');
    expect(redactedRecipientUrl('https://other.example/x?token=abcd1234')).toBe(
      'https://other.example/[REDACTED]',
    );
    expect(redactedRecipientUrl('https://other.example/hooks/AbC123/deliver#frag')).toBe(
      'https://other.example/[REDACTED]',
    );
    expect(redactedRecipientUrl('not a url s3cr3t')).toBe('[REDACTED URL]');
  });
});

describe('RECEIVER_ROUTER_SHARDS', () => {
  test('4 shard routers unless set; 0 for one router per resource; anything else refused by name', () => {
    expect(loadReceiverConfig({}).routerShards).toBe(4);
    expect(loadReceiverConfig({ RECEIVER_ROUTER_SHARDS: '0' }).routerShards).toBe(0);
    expect(loadReceiverConfig({ RECEIVER_ROUTER_SHARDS: '16' }).routerShards).toBe(16);
    for (const bad of ['-1', '2.5', 'many', '1025'])
      expect(() => loadReceiverConfig({ RECEIVER_ROUTER_SHARDS: bad })).toThrow(/RECEIVER_ROUTER_SHARDS/);
  });
});

describe('RECEIVER_DIRECT_FORWARD_TIMEOUT', () => {
  test('1 s unless set; 0 leaves every delivery to a router; a value that is no duration refused by name', () => {
    expect(loadReceiverConfig({}).directForwardTimeoutMs).toBe(1000);
    expect(loadReceiverConfig({ RECEIVER_DIRECT_FORWARD_TIMEOUT: '0' }).directForwardTimeoutMs).toBe(0);
    expect(loadReceiverConfig({ RECEIVER_DIRECT_FORWARD_TIMEOUT: '250ms' }).directForwardTimeoutMs).toBe(250);
    for (const bad of ['-1s', 'soon', '1 minute'])
      expect(() => loadReceiverConfig({ RECEIVER_DIRECT_FORWARD_TIMEOUT: bad })).toThrow(
        /RECEIVER_DIRECT_FORWARD_TIMEOUT/,
      );
  });
});

describe("the receiver's own hop's budget", () => {
  test("the configured timeout, never more than half of Temporal's time for the delivery; 0 stays 0", () => {
    const config = (env: Record<string, string>) => loadReceiverConfig(env);
    expect(directForwardBudgetMs(config({}), 10_000)).toBe(1000);
    expect(directForwardBudgetMs(config({ RECEIVER_DIRECT_FORWARD_TIMEOUT: '8s' }), 10_000)).toBe(5000);
    expect(directForwardBudgetMs(config({ RECEIVER_DIRECT_FORWARD_TIMEOUT: '0' }), 10_000)).toBe(0);
  });
});
