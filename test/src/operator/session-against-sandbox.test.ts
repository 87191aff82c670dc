/**
 * The session manager against the sandbox: login, single-flight, re-login on 401 (expired or revoked
 * tokens), refresh before expiry, and no credential in any log line or error.
 */
import { inspect } from 'node:util';
import { OperatorError } from '../../../src/operator/errors';
import type { RunningSandbox } from '../../../src/sandbox/server';
import {
  credentialSpy,
  newClient,
  operatorCalls,
  PASSCODE,
  sandboxCall,
  startTestSandbox,
} from '../../helpers/operator';
import { captureLogger } from '../../helpers/logs';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  sandbox.reset();
});

const logins = async (target: RunningSandbox = sandbox) =>
  (await operatorCalls(target, 'authenticate')).length;

describe('operator session against the sandbox', () => {
  it('single-flight: 50 concurrent first calls make exactly one login', async () => {
    const client = newClient(sandbox);
    const results = await Promise.all(Array.from({ length: 50 }, () => client.getCurrentVaultNetworks()));
    expect(results).toHaveLength(50);
    expect(await logins()).toBe(1);
    expect(await operatorCalls(sandbox, 'startSession')).toHaveLength(1);
    expect((await operatorCalls(sandbox, 'currentVaultNetworks')).every((call) => call.status === 200)).toBe(
      true,
    );
  });

  it('re-logs in once on a 401 (tokens expired by the operator) and retries the call', async () => {
    const client = newClient(sandbox);
    await client.getCurrentVaultNetworks();
    await sandboxCall(sandbox, 'POST', '/sandbox/v1/faults', { expireTokensNow: true });

    await expect(client.getCurrentVaultNetworks()).resolves.toBeDefined();
    expect(await logins()).toBe(2);
    expect((await operatorCalls(sandbox, 'currentVaultNetworks')).map((call) => call.status)).toEqual([
      200, 401, 200,
    ]);
  });

  it('50 concurrent calls on an expired token share one re-login', async () => {
    const client = newClient(sandbox);
    await client.getCurrentVaultNetworks();
    await sandboxCall(sandbox, 'POST', '/sandbox/v1/faults', { expireTokensNow: true });
    await Promise.all(Array.from({ length: 50 }, () => client.getCurrentVaultNetworks()));
    expect(await logins()).toBe(2);
  });

  it('re-logs in after the operator clock passes the 24 h token life', async () => {
    const client = newClient(sandbox);
    await client.getCurrentVaultNetworks();
    await sandboxCall(sandbox, 'POST', '/sandbox/v1/clock', { advance: '25h' });
    await expect(client.getCurrentVaultNetworks()).resolves.toBeDefined();
    expect(await logins()).toBe(2);
  });

  it('with a short token life, a client whose clock lags gets a 401 and re-logs in', async () => {
    const shortLived = await startTestSandbox({ tokenLifetimeMs: 300 });
    try {
      const frozenAt = Date.now();
      const client = newClient(shortLived, { now: () => frozenAt }); // never believes the token is old
      await client.getCurrentVaultNetworks();
      await new Promise((resolve) => setTimeout(resolve, 400));
      await expect(client.getCurrentVaultNetworks()).resolves.toBeDefined();
      expect(await logins(shortLived)).toBe(2);
      expect((await operatorCalls(shortLived, 'currentVaultNetworks')).map((call) => call.status)).toEqual([
        200, 401, 200,
      ]);
    } finally {
      await shortLived.close();
    }
  });

  it('refreshes before expiry: no call ever meets an expired token', async () => {
    let offsetMs = 0;
    const client = newClient(sandbox, { now: () => Date.now() + offsetMs });
    const advanceBoth = async (ms: number) => {
      offsetMs += ms;
      await sandboxCall(sandbox, 'POST', '/sandbox/v1/clock', { advance: `${ms}ms` });
    };

    await client.getCurrentVaultNetworks();
    await advanceBoth(23 * 3_600_000 + 54 * 60_000); // 6 minutes before expiry
    await client.getCurrentVaultNetworks();
    expect(await logins()).toBe(1);

    await advanceBoth(2 * 60_000); // 4 minutes before expiry: inside the margin
    await client.getCurrentVaultNetworks();
    expect(await logins()).toBe(2);
    expect((await operatorCalls(sandbox, 'currentVaultNetworks')).every((call) => call.status === 200)).toBe(
      true,
    );
    expect(client.sessionStatus()).toMatchObject({ loggedIn: true, logins: 2 });
  });

  it('refreshSession() forces a new login', async () => {
    const client = newClient(sandbox);
    await client.getCurrentVaultNetworks();
    const status = await client.refreshSession();
    expect(status).toMatchObject({ loggedIn: true, logins: 2 });
    expect(await logins()).toBe(2);
    await expect(client.getCurrentVaultNetworks()).resolves.toBeDefined();
  });

  it('a wrong passcode fails the login: 401, not retryable, passcode not echoed', async () => {
    const client = newClient(sandbox, { env: { OPERATOR_PASSCODE: 'definitely-wrong-passcode' } });
    const error: unknown = await client.getCurrentVaultNetworks().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OperatorError);
    expect(error).toMatchObject({ status: 401, retryable: false, operation: 'authenticate' });
    expect(JSON.stringify(error) + (error as Error).message).not.toContain('definitely-wrong-passcode');
    expect(await logins()).toBe(1);
  });

  it('no token, CSRF value or passcode appears in debug logs, errors or inspected objects', async () => {
    const captured = captureLogger();
    const spy = credentialSpy();
    const client = newClient(sandbox, { logger: captured.logger, fetch: spy.fetch });

    const errors: unknown[] = [];
    await client.getCurrentVaultNetworks();
    await sandboxCall(sandbox, 'POST', '/sandbox/v1/faults', { expireTokensNow: true });
    await client.getCurrentVaultNetworks();
    await client.refreshSession();
    const wallet = await client.createWallet({
      networks: ['networks/tron-mainnet'],
      externalUserId: 'secret-check',
    });
    await client.getWalletAddresses(wallet.id);
    await client.createQuote({ coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '10' });
    await client.getOrder('missing').catch((error: unknown) => errors.push(error));
    await sandboxCall(sandbox, 'POST', '/sandbox/v1/faults', {
      api: { failNext: 1, routes: ['getTransaction'] },
    });
    await client.getTransaction('missing').catch((error: unknown) => errors.push(error));
    captured.logger.debug({ client, status: client.sessionStatus() }, 'client state');

    expect(errors).toHaveLength(2);
    expect(spy.secrets.size).toBeGreaterThanOrEqual(6); // three logins, a token and a CSRF value each
    const everything = [
      captured.text(),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      ...errors.map(
        (error) => `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).stack)}`,
      ),
    ].join('\n');
    expect(everything).toContain('"operation":"getOrder"');
    for (const secret of [...spy.secrets, PASSCODE]) expect(everything).not.toContain(secret);
  });
});
