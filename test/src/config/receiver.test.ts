import { loadReceiverConfig, redactedRecipientUrl } from '../../../src/config/receiver';

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
