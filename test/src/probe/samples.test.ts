import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { redactSample, SampleStore } from '../../../src/probe/samples';
import { registerSecret } from '../../../src/secrets/known-secrets';

describe("the probe's samples", () => {
  test('hold no credential, e-mail address or recipient URL path, wherever it hides', () => {
    registerSecret('echoed-token-8a7b6c5d4e3f');
    expect(
      redactSample({
        data: {
          session: { token: 't0k3n-value', csrfToken: 'csrf-value', expiresAt: '2030-01-01T00:00:00Z' },
          passcode: 1234,
          owner: { email: 'ramps@client.example' },
          note: 'login for ramps@client.example with echoed-token-8a7b6c5d4e3f refused',
          url: 'https://hooks.client.example/webhooks/transactions/very-secret-segment-0123456789',
          urls: ['https://hooks.client.example/webhooks/orders/another-secret-segment-0123456789'],
          'ops@client.example': 'a key is text too',
          amount: '12.50',
          count: 3,
        },
      }),
    ).toEqual({
      data: {
        session: { token: '[REDACTED]', csrfToken: '[REDACTED]', expiresAt: '2030-01-01T00:00:00Z' },
        passcode: '[REDACTED]',
        owner: { email: '[REDACTED]' },
        note: 'login for [REDACTED] with [REDACTED] refused',
        url: 'https://hooks.client.example/[REDACTED]',
        urls: ['https://hooks.client.example/[REDACTED]'],
        '[REDACTED]': 'a key is text too',
        amount: '12.50',
        count: 3,
      },
    });
  });

  test('are redacted when written, with secrets learned after the answer came; old files go first', () => {
    const store = new SampleStore();
    store.save({
      operation: 'getOrder',
      method: 'GET',
      route: '/orders/{id}',
      status: 200,
      body: { data: { id: 'late-secret-1234567' } },
    });
    registerSecret('late-secret-1234567');
    const dir = mkdtempSync(path.join(tmpdir(), 'samples-'));
    writeFileSync(path.join(dir, '99-old.json'), '{}');
    writeFileSync(path.join(dir, 'notes.txt'), 'kept');
    const written = store.writeTo(dir);
    expect(readdirSync(dir).sort()).toEqual(['1-getOrder-200.json', 'notes.txt']);
    expect(written).toEqual([path.join(dir, '1-getOrder-200.json')]);
    expect(JSON.parse(readFileSync(written[0]!, 'utf8'))).toEqual({
      operation: 'getOrder',
      method: 'GET',
      route: '/orders/{id}',
      status: 200,
      body: { data: { id: '[REDACTED]' } },
    });
  });
});
