import { loadReceiverConfig, redactedRecipientUrl } from '../../../src/config/receiver';
import { directForwardBudgetMs } from '../../../src/webhooks/receiver';
import { testReceiverConfig } from '../../helpers/receiver';

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

describe("the receiver's fixed limits", () => {
  test('they are constants: the environment does not set them', () => {
    const fixed = loadReceiverConfig({});
    expect(
      loadReceiverConfig({
        RECEIVER_ROUTER_SHARDS: '0',
        RECEIVER_DIRECT_FORWARD_TIMEOUT: '0',
        RECEIVER_TEMPORAL_TIMEOUT: '1s',
        RECEIVER_BODY_LIMIT: '1mb',
        RECEIVER_SHARD_CHECK_INTERVAL: '1s',
      }),
    ).toEqual({ ...fixed, transactionSecret: expect.anything(), orderSecret: expect.anything() });
    expect(fixed).not.toHaveProperty('routerShards');
  });

  test("the own hop's budget: 1 s, never more than half of Temporal's time for the delivery; 0 stays 0", () => {
    expect(directForwardBudgetMs(loadReceiverConfig({}), 10_000)).toBe(1000);
    expect(directForwardBudgetMs(loadReceiverConfig({}), 1_500)).toBe(750);
    expect(directForwardBudgetMs(testReceiverConfig({ directForwardTimeoutMs: 8_000 }), 10_000)).toBe(5000);
    expect(directForwardBudgetMs(testReceiverConfig({ directForwardTimeoutMs: 0 }), 10_000)).toBe(0);
  });
});
