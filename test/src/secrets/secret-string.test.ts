import { inspect } from 'node:util';
import { redactKnownSecrets } from '../../../src/secrets/known-secrets';
import { SecretString } from '../../../src/secrets/secret-string';

describe('SecretString', () => {
  test('prints as [REDACTED] through JSON, inspect and string conversion; reveal() reads it', () => {
    const secret = new SecretString('passcode-8c1f');
    const config = { email: 'ops@example.com', passcode: secret };
    expect(JSON.stringify(config)).toBe('{"email":"ops@example.com","passcode":"[REDACTED]"}');
    expect(inspect(config)).not.toContain('passcode-8c1f');
    expect(String(secret)).toBe('[REDACTED]');
    expect(secret.reveal()).toBe('passcode-8c1f');
  });

  test('registers its value, so text that echoes it is scrubbed', () => {
    new SecretString('token-5e0b77');
    expect(redactKnownSecrets('the operator said: bad token token-5e0b77')).toBe(
      'the operator said: bad token [REDACTED]',
    );
  });
});
