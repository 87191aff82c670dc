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

describe("the receiver's own hop's budget", () => {
  test("1 s, or the ReceiverConfig's own, never more than half of Temporal's time for the delivery; 0 stays 0", () => {
    const config = loadReceiverConfig({});
    expect(directForwardBudgetMs(config, 10_000)).toBe(1000);
    expect(directForwardBudgetMs({ ...config, directForwardTimeoutMs: 8_000 }, 10_000)).toBe(5000);
    expect(directForwardBudgetMs({ ...config, directForwardTimeoutMs: 0 }, 10_000)).toBe(0);
  });
});
