import type { OperatorConfig } from '../../../src/config/operator';
import { DEFAULT_OPERATOR_PROFILE, DEFAULT_ROUTES } from '../../../src/domain/operator-profile';
import { OperatorClient } from '../../../src/operator/client';
import { deadlineClockMs } from '../../../src/operator/deadline-clock';
import { OperatorError, OperatorResponseError, OperatorValidationError } from '../../../src/operator/errors';
import type { QuoteRequest } from '../../../src/operator/schemas';
import { FakeOperator, networkFixture, recipientFixture, testConfig } from '../../helpers/fake-operator';
import { captureLogger } from '../../helpers/logs';

function setup(env: Record<string, string> = {}, overrides: Partial<OperatorConfig> = {}) {
  const fake = new FakeOperator();
  const client = new OperatorClient({
    config: testConfig(env, overrides),
    logger: captureLogger().logger,
    fetch: fake.fetch,
  });
  return { fake, client };
}

const address = (n: number) => ({
  id: 'wallet-1',
  address: `0xaddr${n}`,
  network: networkFixture(`net-${n}`),
  balances: [{ asset: 'ETH', amount: '0.000000000000000001' }],
});

describe('OperatorClient', () => {
  it('sends JSON with accept/content-type and the auth headers, never the token in the URL', async () => {
    const { fake, client } = setup();
    fake.handle('POST', /^\/wallets\/private\/v1\/wallets$/, () => ({
      status: 201,
      body: {
        data: {
          id: 'w1',
          externalUserId: 'user-1',
          networks: [{ id: 'ethereum-mainnet', network: networkFixture('ethereum-mainnet') }],
          balances: [],
          futureField: 'kept',
        },
      },
    }));
    const wallet = await client.createWallet({
      networks: ['networks/ethereum-mainnet'],
      externalUserId: 'user-1',
    });
    expect(wallet.id).toBe('w1');
    expect(wallet.futureField).toBe('kept'); // tolerant parsing keeps unknown fields

    const call = fake.apiCalls[0]!;
    expect(call.body).toEqual({ networks: ['networks/ethereum-mainnet'], externalUserId: 'user-1' });
    expect(call.headers.accept).toBe('application/json');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
    expect(call.headers['x-csrf-token']).toBe(fake.issuedCsrfTokens[0]);
    expect(call.headers['x-irs-csrf-token']).toBe(fake.issuedCsrfTokens[0]);
    for (const recorded of fake.calls) expect(recorded.query.toString()).not.toContain('tok-');
  });

  it("a re-login after a 401 on CreateWallet sends nothing more once the call's deadline has passed", async () => {
    const { fake, client } = setup();
    await client.ensureSession();
    fake.handle('POST', /^\/wallets\/private\/v1\/wallets$/, () => {
      fake.loginDelayMs = 1_500;
      return { status: 401, body: { error: { code: 'token_revoked', message: 'log in again' } } };
    });
    await expect(
      client.createWallet(
        { networks: ['networks/ethereum-mainnet'], externalUserId: 'user-1' },
        { deadlineMs: deadlineClockMs() + 1_000 },
      ),
    ).rejects.toMatchObject({ code: 'deadline_passed', operation: 'createWallet' });
    expect(fake.logins).toBe(2);
    expect(fake.apiCalls.filter((call) => call.path === '/wallets/private/v1/wallets')).toHaveLength(1);
  });

  it('a transaction or order read whose deadline has passed is not sent', async () => {
    const { fake, client } = setup();
    await client.ensureSession();
    const passed = { deadlineMs: deadlineClockMs() - 1 };
    await expect(client.getTransaction('tx-1', passed)).rejects.toMatchObject({
      code: 'deadline_passed',
      operation: 'getTransaction',
    });
    await expect(client.getOrder('ord-1', passed)).rejects.toMatchObject({
      code: 'deadline_passed',
      operation: 'getOrder',
    });
    expect(fake.apiCalls).toHaveLength(0);
  });

  it('a wall clock set back during that re-login does not reopen the deadline', async () => {
    const { fake, client } = setup();
    await client.ensureSession();
    const wallClock = Date.now.bind(Date);
    fake.handle('POST', /^\/wallets\/private\/v1\/wallets$/, () => {
      fake.loginDelayMs = 1_500;
      jest.spyOn(Date, 'now').mockImplementation(() => wallClock() - 60_000);
      return { status: 401, body: { error: { code: 'token_revoked', message: 'log in again' } } };
    });
    try {
      await expect(
        client.createWallet(
          { networks: ['networks/ethereum-mainnet'], externalUserId: 'user-1' },
          { deadlineMs: deadlineClockMs() + 1_000 },
        ),
      ).rejects.toMatchObject({ code: 'deadline_passed', operation: 'createWallet' });
    } finally {
      jest.restoreAllMocks();
    }
    expect(fake.apiCalls.filter((call) => call.path === '/wallets/private/v1/wallets')).toHaveLength(1);
  });

  it('logs in with StartSession {} then Authentication {sessionId, email, passcode}', async () => {
    const { fake, client } = setup();
    fake.handle('GET', /^\/core-conversions\/private\/v1\/orders\//, () => ({
      status: 200,
      body: { data: { id: 'o1', orderReference: 'ref-1', status: 'awaiting_funds' } },
    }));
    await client.getOrder('o1');
    const [start, auth] = fake.calls;
    expect(start).toMatchObject({ method: 'POST', path: '/auth/private/v1/sessions', body: {} });
    expect(auth).toMatchObject({ method: 'POST', path: '/auth/private/v1/sessions/authenticate' });
    expect(Object.keys(auth!.body as object).sort()).toEqual(['email', 'passcode', 'sessionId']);
    expect(start!.headers.authorization).toBeUndefined();
  });

  it("uses the profile's routes and URL-encodes ids", async () => {
    const { fake, client } = setup(
      {},
      {
        profile: {
          ...DEFAULT_OPERATOR_PROFILE,
          routes: { ...DEFAULT_ROUTES, getTransaction: 'GET /v2/tx/{id}/details' },
        },
      },
    );
    fake.handle('GET', /^\/v2\/tx\/.+\/details$/, () => ({
      status: 200,
      body: {
        data: {
          id: 'a/b c',
          status: 'confirmed',
          type: 'Deposit',
          subtype: 'external',
          walletId: 'w1',
          amount: '12.5',
        },
      },
    }));
    const transaction = await client.getTransaction('a/b c');
    expect(transaction.amount).toBe('12.5');
    expect(fake.apiCalls[0]!.path).toBe('/v2/tx/a%2Fb%20c/details');
  });

  it('concatenates wallet addresses across 3 pages', async () => {
    const { fake, client } = setup({}, { pageSize: 2 });
    fake.handle('GET', /^\/wallets\/private\/v1\/wallets\/wallet-1\/addresses$/, (call) => {
      const page = Number(call.query.get('page'));
      const limit = Number(call.query.get('limit'));
      const all = [1, 2, 3, 4, 5].map(address);
      return {
        status: 200,
        body: {
          data: all.slice((page - 1) * limit, page * limit),
          pagination: { totalRecord: 5, totalPage: 3, offset: (page - 1) * limit, limit, pageNumber: page },
        },
      };
    });
    const addresses = await client.getWalletAddresses('wallet-1');
    expect(addresses.map((entry) => entry.address)).toEqual([
      '0xaddr1',
      '0xaddr2',
      '0xaddr3',
      '0xaddr4',
      '0xaddr5',
    ]);
    expect(fake.apiCalls.map((call) => call.query.toString())).toEqual([
      'page=1&limit=2',
      'page=2&limit=2',
      'page=3&limit=2',
    ]);
  });

  it('stops paging on an empty page and refuses endless paging', async () => {
    const { fake, client } = setup();
    let served = 0;
    fake.handle('GET', /addresses$/, (call) => {
      served += 1;
      const page = Number(call.query.get('page'));
      // Always claims there is one more page.
      return {
        status: 200,
        body: {
          data: call.path.includes('empty') && page > 1 ? [] : [address(page)],
          pagination: { totalRecord: 1e9, totalPage: page + 1, offset: 0, limit: 10, pageNumber: page },
        },
      };
    });
    expect(await client.getWalletAddresses('empty')).toHaveLength(1);
    served = 0;
    await expect(client.getWalletAddresses('endless')).rejects.toMatchObject({
      code: 'too_many_pages',
      retryable: false,
    });
    expect(served).toBe(1000);
  });

  it('creates quotes with decimal strings', async () => {
    const { fake, client } = setup();
    fake.handle('POST', /^\/core-conversions\/private\/v1\/quotes$/, () => ({
      status: 201,
      body: { data: { target_amount: '5.123456', expires_at: '2025-06-01T12:00:25.000Z', rate: '19.51' } },
    }));
    const quote = await client.createQuote({
      coinFrom: 'MXN',
      chainTo: 'TRX',
      coinTo: 'USDT',
      amountFrom: '100.00',
    });
    expect(quote.target_amount).toBe('5.123456');
    expect(fake.apiCalls[0]!.body).toEqual({
      coinFrom: 'MXN',
      chainTo: 'TRX',
      coinTo: 'USDT',
      amountFrom: '100.00',
    });
  });

  it.each([
    ['a number amount', { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: 100 }],
    ['a negative amount', { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '-1' }],
    ['a zero amount', { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '0.00' }],
    ['an exponent', { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '1e3' }],
    ['both chains', { coinFrom: 'MXN', chainTo: 'TRX', chainFrom: 'TRX', coinTo: 'USDT', amountFrom: '1' }],
    ['no chain', { coinFrom: 'MXN', coinTo: 'USDT', amountFrom: '1' }],
    ['lower-case codes', { coinFrom: 'mxn', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '1' }],
  ])('refuses a quote request with %s, making zero calls', async (_label, request) => {
    const { fake, client } = setup();
    const error: unknown = await client
      .createQuote(request as unknown as QuoteRequest)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OperatorValidationError);
    expect(error).toMatchObject({ code: 'invalid_request', retryable: false, operation: 'createQuote' });
    expect(fake.calls).toHaveLength(0);
  });

  it('manages both recipient kinds on their own routes', async () => {
    const { fake, client } = setup();
    for (const [kind, base] of [
      ['transaction', '/webhooks/private/v1/recipients'],
      ['order', '/webhooks/private/v1/order-recipients'],
    ] as const) {
      const escaped = base.replace(/\//g, '\\/');
      fake.handle('GET', new RegExp(`^${escaped}$`), (call) => {
        const page = Number(call.query.get('page'));
        return {
          status: 200,
          body: {
            data: [recipientFixture(`${kind}-${page}`)],
            pagination: { currentPage: page, totalPage: 2, totalRecord: 2, limit: 1 },
          },
        };
      });
      fake.handle('GET', new RegExp(`^${escaped}/[^/]+$`), (call) => ({
        status: 200,
        body: { data: recipientFixture(call.path.split('/').pop()!) },
      }));
      fake.handle('POST', new RegExp(`^${escaped}$`), (call) => ({
        status: 201,
        body: {
          data: (call.body as { urls: string[] }).urls.map((url, index) =>
            recipientFixture(`${kind}-new-${index}`, url),
          ),
        },
      }));
      fake.handle('DELETE', new RegExp(`^${escaped}/[^/]+$`), () => ({ status: 204 }));
    }

    const page = await client.listRecipients('order', { page: 2, limit: 1 });
    expect(page.pagination.currentPage).toBe(2);
    expect((await client.listAllRecipients('transaction')).map((r) => r.id)).toEqual([
      'transaction-1',
      'transaction-2',
    ]);
    expect((await client.getRecipient('order', 'r-9')).id).toBe('r-9');
    const created = await client.createRecipients('order', [
      'https://hooks.example.com/a',
      'https://hooks.example.com/b',
    ]);
    expect(created.map((r) => r.url)).toEqual(['https://hooks.example.com/a', 'https://hooks.example.com/b']);
    await expect(client.deleteRecipient('transaction', 'r-1')).resolves.toBeUndefined();
    expect(fake.apiCalls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /webhooks/private/v1/order-recipients',
      'GET /webhooks/private/v1/recipients',
      'GET /webhooks/private/v1/recipients',
      'GET /webhooks/private/v1/order-recipients/r-9',
      'POST /webhooks/private/v1/order-recipients',
      'DELETE /webhooks/private/v1/recipients/r-1',
    ]);
  });

  it('refuses a non-https recipient URL locally, making zero calls', async () => {
    const { fake, client } = setup();
    await expect(
      client.createRecipients('transaction', ['https://ok.example.com', 'http://plain.example.com']),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      retryable: false,
      message: expect.stringContaining('urls.1: must begin with https://'),
    });
    await expect(client.createRecipients('order', [])).rejects.toBeInstanceOf(OperatorValidationError);
    expect(fake.calls).toHaveLength(0);
  });

  it('a 2xx body that breaks the schema fails with issue paths, not values', async () => {
    const { fake, client } = setup();
    fake.handle('GET', /orders/, () => ({
      status: 200,
      body: { data: { id: 'o1', orderReference: 'ref', status: 'SECRETISH-STATUS' } },
    }));
    const error: unknown = await client.getOrder('o1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OperatorResponseError);
    const { message, issues, retryable } = error as OperatorResponseError;
    expect(retryable).toBe(false);
    expect(issues[0]).toMatch(/^data\.status: /);
    expect(message).not.toContain('SECRETISH-STATUS');
  });

  it('maps operator error statuses to OperatorErrors', async () => {
    const { fake, client } = setup();
    fake.handle('POST', /quotes$/, () => ({
      status: 429,
      body: { error: { code: 'rate_limited', message: 'slow down' } },
    }));
    fake.handle('GET', /orders/, () => ({
      status: 404,
      body: { error: { code: 'not_found', message: 'no such order' } },
    }));
    await expect(
      client.createQuote({ coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '10' }),
    ).rejects.toMatchObject({
      status: 429,
      retryable: true,
      operation: 'createQuote',
    });
    const notFound: unknown = await client.getOrder('missing').catch((caught: unknown) => caught);
    expect(notFound).toBeInstanceOf(OperatorError);
    expect(notFound).toMatchObject({ status: 404, retryable: false, operatorCode: 'not_found' });
  });

  it('returns the loosely parsed data of current-vault-networks', async () => {
    const { fake, client } = setup();
    fake.handle('GET', /^\/api\/wallets\/private\/v1\/current-vault-networks$/, () => ({
      status: 200,
      body: { data: [{ anything: true }] },
    }));
    expect(await client.getCurrentVaultNetworks()).toEqual([{ anything: true }]);
  });
});
