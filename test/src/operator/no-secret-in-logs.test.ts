import { redactedRecipientUrl } from '../../../src/config/receiver';
import { Writable } from 'node:stream';
import { createLogger, redactSecrets, registerSecret, secretRedactPaths } from '../../../src/logging';
import { OperatorClient } from '../../../src/operator/client';
import { captureLogger, FakeOperator, PASSCODE, testConfig } from '../../helpers/fake-operator';

describe('logger redaction', () => {
  it('censors credential keys at any reasonable depth, including hyphenated header names', () => {
    const captured = captureLogger();
    captured.logger.info(
      {
        token: 'AAA-top',
        headers: {
          authorization: 'Bearer BBB',
          'x-csrf-token': 'CCC',
          'x-irs-csrf-token': 'DDD',
          cookie: 'EEE',
        },
        request: {
          headers: { authorization: 'Bearer FFF', 'x-irs-csrf-token': 'GGG' },
          body: { passcode: 'HHH', password: 'III' },
        },
        data: { session: { token: 'JJJ', csrfToken: 'KKK' } },
      },
      'shape test',
    );
    const line = captured.text();
    for (const value of ['AAA-top', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF', 'GGG', 'HHH', 'III', 'JJJ', 'KKK'])
      expect(line).not.toContain(value);
    expect(line).toContain('shape test');
    expect(secretRedactPaths()).toEqual(
      expect.arrayContaining(['token', '*.*.token', '*.authorization', '*["x-irs-csrf-token"]']),
    );
  });

  it('scrubs registered secret values from any text, key or message', () => {
    const captured = captureLogger();
    registerSecret('registered-secret-value-42');
    captured.logger.warn(
      { note: 'has registered-secret-value-42 inside' },
      'message registered-secret-value-42',
    );
    expect(captured.text()).not.toContain('registered-secret-value-42');
    expect(redactSecrets('a s3cr3t b', ['s3cr3t'])).toBe('a [REDACTED] b');
  });

  it('takes its level from LOG_LEVEL, default info', () => {
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    expect(createLogger({ destination: sink, env: {} }).level).toBe('info');
    expect(createLogger({ destination: sink, env: { LOG_LEVEL: 'debug' } }).level).toBe('debug');
    expect(createLogger({ destination: sink, env: { LOG_LEVEL: 'nonsense' } }).level).toBe('info');
  });
});

describe('no secret reaches logs or errors', () => {
  it('across logins, re-logins, calls and failures at debug level', async () => {
    const captured = captureLogger();
    const fake = new FakeOperator();
    fake.handle('GET', /orders/, () => ({
      status: 200,
      body: { data: { id: 'o1', orderReference: 'ref', status: 'executed' } },
    }));
    // An operator that echoes credentials back in its error messages.
    fake.handle('POST', /quotes$/, (call) => ({
      status: 400,
      body: {
        error: {
          code: 'bad',
          message: `rejected ${call.headers.authorization} with csrf ${call.headers['x-csrf-token']}`,
        },
      },
    }));
    fake.handle('GET', /transactions/, () => ({ status: 500, text: 'oops' }));
    const client = new OperatorClient({ config: testConfig(), logger: captured.logger, fetch: fake.fetch });

    const errors: unknown[] = [];
    await client.getOrder('o1');
    fake.revokeAllTokens();
    await client.getOrder('o1');
    await client.refreshSession();
    await client
      .createQuote({ coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '1' })
      .catch((error: unknown) => errors.push(error));
    await client.getTransaction('t1').catch((error: unknown) => errors.push(error));
    captured.logger.debug({ session: client, status: client.sessionStatus() }, 'state dump');

    expect(errors).toHaveLength(2);
    expect(fake.issuedTokens).toHaveLength(3);
    expect(captured.lines().length).toBeGreaterThan(5);
    expect(
      captured
        .lines()
        .some((line) => line.includes('"operation":"getOrder"') && line.includes('"status":200')),
    ).toBe(true);

    const everything = [
      captured.text(),
      ...errors.map(
        (error) => `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).stack)}`,
      ),
    ].join('\n');
    for (const secret of [...fake.issuedTokens, ...fake.issuedCsrfTokens, PASSCODE]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).toContain('[REDACTED]'); // the echoed credentials were there, and were scrubbed
  });
});

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
