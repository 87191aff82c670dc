import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { clientWebhookSecretIssue, loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { signatureHeaders } from '../../../src/outcomes/signature';
import { SecretString } from '../../../src/secrets/secret-string';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({
    type: 'off_ramp.settled',
    timestamp: '2026-01-01T00:00:00.000Z',
    data: { fiatAmount: '1820.50' },
  });

  test('the standardwebhooks package verifies what we sign, with any of the rotated secrets', () => {
    const [current, next] = [newSecret(), newSecret()];
    const headers = signatureHeaders(
      'evt_offramp~tx-1~1',
      body,
      [new SecretString(current), new SecretString(next)],
      new Date(),
    );
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, next]) {
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    }
  });

  test('a wrong secret, a changed body or a changed id fails verification', () => {
    const secret = newSecret();
    const headers = signatureHeaders('evt_offramp~tx-1~1', body, [new SecretString(secret)], new Date());
    expect(() => new Webhook(newSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body.replace('1820.50', '9820.50'), { ...headers })).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_offramp~tx-1~2' }),
    ).toThrow(WebhookVerificationError);
  });

  test('the timestamp is the attempt time in seconds', () => {
    const headers = signatureHeaders(
      'evt_x~1',
      body,
      [new SecretString(newSecret())],
      new Date('2026-01-01T00:00:01.900Z'),
    );
    expect(headers['webhook-timestamp']).toBe(String(Date.UTC(2026, 0, 1, 0, 0, 1) / 1000));
  });
});

describe('client webhook configuration', () => {
  test('loads endpoints and secrets, redacted, labelled by host only', () => {
    const secret = newSecret();
    const config = loadClientWebhookConfig({
      CLIENT_WEBHOOK_URLS: 'https://user:pass@hooks.example.com/in?token=t, http://127.0.0.1:9000/hook',
      CLIENT_WEBHOOK_SECRET: secret,
      CLIENT_WEBHOOK_TIMEOUT: '3s',
    });
    expect(config.endpoints.map((endpoint) => endpoint.label)).toEqual([
      'endpoint 1 (hooks.example.com)',
      'endpoint 2 (127.0.0.1:9000)',
    ]);
    expect(config.endpoints[0]!.url.reveal()).toBe('https://user:pass@hooks.example.com/in?token=t');
    expect(JSON.stringify(config)).not.toContain('pass');
    expect(JSON.stringify(config)).not.toContain(secret.slice(6));
    expect(config.timeoutMs).toBe(3000);
  });

  test('nothing configured: no endpoints', () => {
    expect(loadClientWebhookConfig({})).toEqual({ endpoints: [], secrets: [], timeoutMs: 10_000 });
  });

  test('refuses plain http off loopback, URLs without a secret and malformed secrets, without echoing them', () => {
    const attempt = (env: Record<string, string>) => () => loadClientWebhookConfig(env);
    expect(
      attempt({ CLIENT_WEBHOOK_URLS: 'http://hooks.example.com/x', CLIENT_WEBHOOK_SECRET: newSecret() }),
    ).toThrow(/must be https/);
    expect(() =>
      loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: 'http://hooks.example.com/x',
        CLIENT_WEBHOOK_SECRET: newSecret(),
        CLIENT_WEBHOOK_ALLOW_HTTP: 'true',
      }),
    ).not.toThrow();
    expect(attempt({ CLIENT_WEBHOOK_URLS: 'https://hooks.example.com/x' })).toThrow(
      /CLIENT_WEBHOOK_SECRET: is required/,
    );
    expect(attempt({ CLIENT_WEBHOOK_URLS: 'not a url', CLIENT_WEBHOOK_SECRET: newSecret() })).toThrow(
      /entry 1 is not a URL/,
    );
    try {
      loadClientWebhookConfig({ CLIENT_WEBHOOK_SECRET: 'hunter2-plain' });
      throw new Error('accepted');
    } catch (error) {
      expect((error as Error).message).toMatch(/must start with whsec_/);
      expect((error as Error).message).not.toContain('hunter2');
    }
    expect(clientWebhookSecretIssue(`whsec_${randomBytes(8).toString('base64')}`)).toMatch(/24-64 bytes/);
    expect(clientWebhookSecretIssue(newSecret())).toBeUndefined();
  });
});
