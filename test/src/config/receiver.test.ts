import { redactedRecipientUrl } from '../../../src/config/receiver';

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
