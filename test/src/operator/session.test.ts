import { inspect } from 'node:util';
import type { OperatorConfig } from '../../../src/config/operator';
import { OperatorClient } from '../../../src/operator/client';
import { OperatorError } from '../../../src/operator/errors';
import { FakeOperator, movableClock, testConfig } from '../../helpers/fake-operator';
import { captureLogger } from '../../helpers/logs';

const ORDER = { id: 'o1', orderReference: 'ref-1', status: 'executed' };

function setup(env: Record<string, string> = {}, overrides: Partial<OperatorConfig> = {}) {
  const clock = movableClock();
  const fake = new FakeOperator(clock.now);
  fake.handle('GET', /orders/, () => ({ status: 200, body: { data: ORDER } }));
  const client = new OperatorClient({
    config: testConfig(env, overrides),
    logger: captureLogger().logger,
    fetch: fake.fetch,
    now: clock.now,
  });
  return { clock, fake, client };
}

describe('SessionManager (through OperatorClient)', () => {
  it('logs in once on first use and reuses the token', async () => {
    const { fake, client } = setup();
    expect(client.sessionStatus()).toMatchObject({ loggedIn: false, expiresAt: null, logins: 0 });
    await client.getOrder('o1');
    await client.getOrder('o1');
    expect(fake.logins).toBe(1);
    expect(client.sessionStatus()).toMatchObject({ loggedIn: true, logins: 1 });
  });

  it('single-flight: 50 concurrent calls share one login', async () => {
    const { fake, client } = setup();
    fake.loginDelayMs = 50;
    const results = await Promise.all(Array.from({ length: 50 }, () => client.getOrder('o1')));
    expect(results).toHaveLength(50);
    expect(fake.logins).toBe(1);
    expect(fake.calls.filter((call) => call.path === '/auth/private/v1/sessions')).toHaveLength(1);
  });

  it('single-flight also holds when 50 concurrent calls all hit a revoked token', async () => {
    const { fake, client } = setup();
    await client.getOrder('o1');
    fake.revokeAllTokens();
    fake.loginDelayMs = 30;
    await Promise.all(Array.from({ length: 50 }, () => client.getOrder('o1')));
    expect(fake.logins).toBe(2);
  });

  it('on a 401 logs in again once and retries the call', async () => {
    const { fake, client } = setup();
    await client.getOrder('o1');
    fake.revokeAllTokens();
    await expect(client.getOrder('o1')).resolves.toMatchObject({ id: 'o1' });
    expect(fake.logins).toBe(2);
    const orderCalls = fake.apiCalls;
    expect(orderCalls).toHaveLength(3);
    expect(orderCalls[2]!.headers.authorization).toBe(`Bearer ${fake.issuedTokens[1]}`);
  });

  it('a second 401 after the re-login is final and not retryable', async () => {
    const { fake, client } = setup();
    let orderCalls = 0;
    fake.handle('GET', /^\/wallets\/private\/v1\/transactions\//, () => {
      orderCalls += 1;
      return { status: 401, body: { error: { code: 'unauthenticated', message: 'no' } } };
    });
    const error: unknown = await client.getTransaction('t1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OperatorError);
    expect(error).toMatchObject({ status: 401, retryable: false, operation: 'getTransaction' });
    expect(orderCalls).toBe(2);
    expect(fake.logins).toBe(2);
  });

  it('wrong credentials fail the login without retries and without echoing the passcode', async () => {
    const clock = movableClock();
    const fake = new FakeOperator(clock.now);
    const config = testConfig({ OPERATOR_PASSCODE: 'wrong-passcode-123' });
    const client = new OperatorClient({
      config,
      logger: captureLogger().logger,
      fetch: fake.fetch,
      now: clock.now,
    });
    const error: unknown = await client.getOrder('o1').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, retryable: false, operation: 'authenticate' });
    expect((error as Error).message).not.toContain('wrong-passcode-123');
    expect(fake.logins).toBe(1);
  });

  it('refreshes before expiry when the clock passes expiresAt minus the margin', async () => {
    const { clock, fake, client } = setup();
    fake.tokenLifetimeMs = 60 * 60_000;
    await client.getOrder('o1');
    expect(fake.logins).toBe(1);

    clock.advance(54 * 60_000); // 6 minutes before expiry: still fresh
    await client.getOrder('o1');
    expect(fake.logins).toBe(1);

    clock.advance(2 * 60_000); // 4 minutes before expiry: inside the margin
    await client.getOrder('o1');
    expect(fake.logins).toBe(2);
    expect(fake.apiCalls.at(-1)!.headers.authorization).toBe(`Bearer ${fake.issuedTokens[1]}`);
  });

  it('caps the margin at half of a short token life, so short-lived tokens are still used', async () => {
    const { clock, fake, client } = setup();
    fake.tokenLifetimeMs = 2000;
    await client.getOrder('o1');
    await client.getOrder('o1');
    expect(fake.logins).toBe(1);
    clock.advance(1001);
    await client.getOrder('o1');
    expect(fake.logins).toBe(2);
  });

  it('falls back to the configured token lifetime when the operator sends no expiresAt', async () => {
    const { clock, fake, client } = setup(
      { OPERATOR_TOKEN_LIFETIME: '10m' },
      { tokenRefreshMarginMs: 60_000 },
    );
    fake.sendExpiresAt = false;
    await client.getOrder('o1');
    expect(client.sessionStatus().expiresAt).toBe(new Date(clock.now() + 10 * 60_000).toISOString());
    clock.advance(8 * 60_000);
    await client.getOrder('o1');
    expect(fake.logins).toBe(1);
    clock.advance(90_000);
    await client.getOrder('o1');
    expect(fake.logins).toBe(2);
  });

  it('ensureSession() logs in only when the session is missing or due for refresh, and calls no API', async () => {
    const { fake, clock, client } = setup();
    fake.tokenLifetimeMs = 60 * 60_000;
    await client.ensureSession();
    await client.ensureSession();
    expect(fake.logins).toBe(1);
    await client.getOrder('o1');
    expect(fake.logins).toBe(1);
    clock.advance(56 * 60_000); // inside the refresh margin
    await client.ensureSession();
    expect(fake.logins).toBe(2);
    expect(fake.apiCalls).toHaveLength(1);
  });

  it('refresh() forces a new login; concurrent refreshes share it', async () => {
    const { fake, client } = setup();
    await client.getOrder('o1');
    fake.loginDelayMs = 20;
    const [first, second] = await Promise.all([client.refreshSession(), client.refreshSession()]);
    expect(fake.logins).toBe(2);
    expect(first).toEqual(second);
    expect(first.loggedIn).toBe(true);
  });

  it('never reveals tokens through JSON or util.inspect', async () => {
    const { fake, client } = setup();
    await client.getOrder('o1');
    const token = fake.issuedTokens[0]!;
    const csrf = fake.issuedCsrfTokens[0]!;
    for (const shown of [
      JSON.stringify(client),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client.sessionStatus()),
    ]) {
      expect(shown).not.toContain(token);
      expect(shown).not.toContain(csrf);
    }
    expect(Object.keys(client)).toEqual([]);
  });
});
