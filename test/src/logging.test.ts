import { Writable } from 'node:stream';
import { createLogger, secretRedactPaths } from '../../src/logging';
import { redactSecrets, registerSecret } from '../../src/secrets/known-secrets';
import { captureLogger } from '../helpers/logs';

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
