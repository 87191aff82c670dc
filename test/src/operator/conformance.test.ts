/**
 * The operator client against the sandbox over HTTP: every endpoint, paging, the authentication and CSRF
 * rules, error classification, the https-only recipient rule and the quote life.
 */
import { DECIMAL_PATTERN } from '../../../src/domain/decimal';
import { NETWORKS } from '../../../src/domain/vocabulary';
import type { OperatorClient } from '../../../src/operator/client';
import { OperatorError, OperatorValidationError } from '../../../src/operator/errors';
import { OperatorTransport } from '../../../src/operator/http';
import { SessionManager, type AuthHeaders } from '../../../src/operator/session';
import type { RunningSandbox } from '../../../src/sandbox/server';
import {
  clientConfig,
  newClient,
  operatorCalls,
  sandboxCall,
  startTestSandbox,
} from '../../helpers/operator';
import { waitFor } from '../../helpers/wait';
import { captureLogger } from '../../helpers/logs';

let sandbox: RunningSandbox;
let client: OperatorClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  sandbox.reset();
  client = newClient(sandbox);
});

/** The client's lower layers, to send what the typed client refuses to send (no token, bad CSRF, http:// URLs). */
function rawLayers() {
  const config = clientConfig(sandbox);
  const logger = captureLogger().logger;
  const transport = new OperatorTransport({
    baseUrl: config.baseUrl,
    profile: config.profile,
    timeoutMs: config.requestTimeoutMs,
    logger,
  });
  const session = new SessionManager({
    transport,
    profile: config.profile,
    email: config.email,
    passcode: config.passcode,
    tokenLifetimeMs: config.tokenLifetimeMs,
    logger,
  });
  return { transport, session };
}

async function rejection(promise: Promise<unknown>): Promise<OperatorError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OperatorError);
  return error as OperatorError;
}

async function setUpAccount() {
  const networks = [NETWORKS.ethereum, NETWORKS.tron];
  const master = await client.createWallet({ networks, externalUserId: 'ramp-orchestrator/master' });
  const gas = await client.createWallet({ networks, externalUserId: 'ramp-orchestrator/gas' });
  const answer = await sandboxCall(sandbox, 'PUT', '/sandbox/v1/account', {
    masterWalletId: master.id,
    gasWalletId: gas.id,
  });
  expect(answer.status).toBe(200);
  return { master, gas };
}

describe('wallets', () => {
  it('current vault networks answers data', async () => {
    const networks = await client.getCurrentVaultNetworks();
    expect(Array.isArray(networks)).toBe(true);
    expect(networks).toEqual(expect.arrayContaining([expect.objectContaining({ name: NETWORKS.ethereum })]));
  });

  it('creates a wallet and reads its addresses, one per network', async () => {
    const wallet = await client.createWallet({
      networks: [NETWORKS.ethereum, NETWORKS.tron],
      externalUserId: 'end-user-1',
    });
    expect(wallet).toMatchObject({ externalUserId: 'end-user-1', balances: [] });
    expect(wallet.networks.map((entry) => entry.network.name).sort()).toEqual([
      NETWORKS.ethereum,
      NETWORKS.tron,
    ]);

    const addresses = await client.getWalletAddresses(wallet.id);
    expect(addresses).toHaveLength(2);
    for (const entry of addresses) {
      expect(entry.id).toBe(wallet.id);
      expect(entry.address.length).toBeGreaterThan(10);
    }
    expect(new Set(addresses.map((entry) => entry.network.name))).toEqual(
      new Set([NETWORKS.ethereum, NETWORKS.tron]),
    );
  });

  it('pages wallet addresses with ?page=N&limit=M and concatenates all pages', async () => {
    const wallet = await client.createWallet({
      networks: [NETWORKS.ethereum, NETWORKS.tron],
      externalUserId: 'end-user-2',
    });
    const second = await client.getWalletAddressesPage(wallet.id, 2, 1);
    expect(second.data).toHaveLength(1);
    expect(second.pagination).toMatchObject({
      totalRecord: 2,
      totalPage: 2,
      limit: 1,
      pageNumber: 2,
      offset: 1,
    });

    const smallPages = newClient(sandbox, { config: { pageSize: 1 } });
    sandbox.state.calls.length = 0;
    const all = await smallPages.getWalletAddresses(wallet.id);
    expect(all.map((entry) => entry.address).sort()).toEqual(
      (await client.getWalletAddresses(wallet.id)).map((entry) => entry.address).sort(),
    );
    expect(
      (await operatorCalls(sandbox, 'getWalletAddresses')).filter((call) => call.status === 200).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('an unknown wallet is a non-retryable 404', async () => {
    const error = await rejection(client.getWalletAddresses('no-such-wallet'));
    expect(error).toMatchObject({
      status: 404,
      retryable: false,
      operation: 'getWalletAddresses',
      operatorCode: 'not_found',
    });
  });

  it('an unknown network is a non-retryable 400 from the operator', async () => {
    const error = await rejection(
      client.createWallet({ networks: ['networks/dogecoin-mainnet'], externalUserId: 'x' }),
    );
    expect(error).toMatchObject({ status: 400, retryable: false });
  });
});

describe('quotes', () => {
  it('on ramp and off ramp quotes carry decimal-string amounts and expire 25 s after issue', async () => {
    const onRamp = await client.createQuote({
      coinFrom: 'MXN',
      chainTo: 'TRX',
      coinTo: 'USDT',
      amountFrom: '1000.00',
    });
    const offRamp = await client.createQuote({
      coinFrom: 'USDT',
      chainFrom: 'TRX',
      coinTo: 'MXN',
      amountFrom: '50',
    });
    for (const quote of [onRamp, offRamp]) {
      expect(typeof quote.target_amount).toBe('string');
      expect(quote.target_amount).toMatch(DECIMAL_PATTERN);
      expect(Date.parse(quote.expires_at) - Date.parse(quote.created_at as string)).toBe(25_000);
    }
  });

  it('a quote is honoured within its life and refused once expired', async () => {
    await setUpAccount();
    const fresh = await client.createQuote({
      coinFrom: 'MXN',
      chainTo: 'TRX',
      coinTo: 'USDT',
      amountFrom: '500',
    });
    const used = await sandboxCall<{ data: { amountTo: string } }>(
      sandbox,
      'POST',
      '/sandbox/v1/onramp/deposits',
      {
        reference: 'ref-quote-ok',
        amount: '500',
        coinTo: 'USDT',
        chainTo: 'TRX',
        quoteId: fresh.id,
      },
    );
    expect(used.status).toBe(202);
    expect(used.body.data.amountTo).toBe(fresh.target_amount);

    const stale = await client.createQuote({
      coinFrom: 'MXN',
      chainTo: 'TRX',
      coinTo: 'USDT',
      amountFrom: '500',
    });
    await sandboxCall(sandbox, 'POST', '/sandbox/v1/clock', { advance: '26s' });
    const refused = await sandboxCall<{ error: { code: string } }>(
      sandbox,
      'POST',
      '/sandbox/v1/onramp/deposits',
      {
        reference: 'ref-quote-stale',
        amount: '500',
        coinTo: 'USDT',
        chainTo: 'TRX',
        quoteId: stale.id,
      },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('quote_expired');
  });

  it('bad quote input is refused locally with no call to the operator', async () => {
    await client.getCurrentVaultNetworks(); // log in first, so only the quote call could show up
    sandbox.state.calls.length = 0;
    const error = await rejection(
      client.createQuote({ coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '12,5' }),
    );
    expect(error).toBeInstanceOf(OperatorValidationError);
    expect(await operatorCalls(sandbox)).toHaveLength(0);
  });
});

describe('webhook recipients', () => {
  it.each(['transaction', 'order'] as const)(
    '%s recipients: create, list (3 pages), get, delete',
    async (kind) => {
      const urls = Array.from({ length: 25 }, (_, index) => `https://hooks.example.com/${kind}/${index}`);
      const created = [
        ...(await client.createRecipients(kind, urls.slice(0, 10))),
        ...(await client.createRecipients(kind, urls.slice(10, 20))),
        ...(await client.createRecipients(kind, urls.slice(20))),
      ];
      expect(created.map((recipient) => recipient.url)).toEqual(urls);

      const firstPage = await client.listRecipients(kind);
      expect(firstPage.data).toHaveLength(10);
      expect(firstPage.pagination).toMatchObject({
        currentPage: 1,
        totalPage: 3,
        totalRecord: 25,
        limit: 10,
      });
      const all = await client.listAllRecipients(kind);
      expect(all.map((recipient) => recipient.url).sort()).toEqual([...urls].sort());

      const one = created[3]!;
      expect(await client.getRecipient(kind, one.id)).toMatchObject({ id: one.id, url: one.url });
      await client.deleteRecipient(kind, one.id);
      expect(await rejection(client.getRecipient(kind, one.id))).toMatchObject({
        status: 404,
        retryable: false,
      });
      expect(await client.listAllRecipients(kind)).toHaveLength(24);

      const otherKind = kind === 'transaction' ? 'order' : 'transaction';
      expect(await client.listAllRecipients(otherKind)).toHaveLength(0);
    },
  );

  it('an http:// recipient is refused by the client with no call', async () => {
    await client.getCurrentVaultNetworks();
    sandbox.state.calls.length = 0;
    const error = await rejection(client.createRecipients('transaction', ['http://hooks.example.com/tx']));
    expect(error).toMatchObject({ code: 'invalid_request', retryable: false });
    expect(error.message).toContain('https://');
    expect(await operatorCalls(sandbox)).toHaveLength(0);
  });

  it('an http:// recipient sent anyway is a 400 from the operator and nothing is stored', async () => {
    const { transport, session } = rawLayers();
    for (const operation of ['createTransactionRecipients', 'createOrderRecipients'] as const) {
      const error = await rejection(
        session.call((headers) =>
          transport.send({
            operation,
            headers,
            body: { urls: ['https://hooks.example.com/ok', 'http://hooks.example.com/plain'] },
          }),
        ),
      );
      expect(error).toMatchObject({ status: 400, retryable: false, operation });
    }
    expect(await client.listAllRecipients('transaction')).toHaveLength(0);
    expect(await client.listAllRecipients('order')).toHaveLength(0);
  });
});

describe('transactions and orders', () => {
  it('reads an order and its settlement transaction by id', async () => {
    const { master } = await setUpAccount();
    const started = await sandboxCall<{ data: { orderId: string; transactionId: string } }>(
      sandbox,
      'POST',
      '/sandbox/v1/onramp/deposits',
      {
        reference: 'ref-details',
        amount: '2000.00',
        coinTo: 'USDT',
        chainTo: 'TRX',
      },
    );
    expect(started.status).toBe(202);
    const { orderId, transactionId } = started.body.data;

    const order = await client.getOrder(orderId);
    expect(order).toMatchObject({ id: orderId, orderReference: 'ref-details' });
    expect(order.amountFrom).toBe('2000.00');

    const transaction = await waitFor(async () => {
      try {
        return await client.getTransaction(transactionId);
      } catch (error) {
        if (error instanceof OperatorError && error.status === 404) return undefined; // not created yet
        throw error;
      }
    }, 'the settlement transaction');
    expect(transaction).toMatchObject({ id: transactionId, walletId: master.id, type: 'Deposit' });
    expect(transaction.amount).toMatch(DECIMAL_PATTERN);
    const executed = await waitFor(async () => {
      const current = await client.getOrder(orderId);
      return current.status === 'executed' ? current : undefined;
    }, 'the executed order');
    expect(executed.transactionId).toBe(transactionId);
  });

  it('unknown ids are non-retryable 404s', async () => {
    expect(await rejection(client.getOrder('missing-order'))).toMatchObject({
      status: 404,
      retryable: false,
      operation: 'getOrder',
    });
    expect(await rejection(client.getTransaction('missing-tx'))).toMatchObject({
      status: 404,
      retryable: false,
      operation: 'getTransaction',
    });
  });
});

describe('authentication rules', () => {
  it('no token → 401', async () => {
    const { transport } = rawLayers();
    const error = await rejection(transport.send({ operation: 'currentVaultNetworks' }));
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated', retryable: false });
  });

  it('a wrong CSRF value → 403, not retryable, and no re-login', async () => {
    const { transport, session } = rawLayers();
    const wrongCsrf = (headers: AuthHeaders): AuthHeaders => ({
      ...headers,
      'x-irs-csrf-token': 'not-the-csrf-value',
    });
    const error = await rejection(
      session.call((headers) =>
        transport.send({ operation: 'currentVaultNetworks', headers: wrongCsrf(headers) }),
      ),
    );
    expect(error).toMatchObject({ status: 403, code: 'forbidden', retryable: false });
    const noCsrf = ({ authorization }: AuthHeaders): AuthHeaders => ({ authorization: authorization! });
    expect(
      await rejection(
        session.call((headers) =>
          transport.send({ operation: 'currentVaultNetworks', headers: noCsrf(headers) }),
        ),
      ),
    ).toMatchObject({
      status: 403,
    });
    expect(session.status().logins).toBe(1);
  });

  it('either CSRF header name is accepted alone', async () => {
    const { transport, session } = rawLayers();
    for (const name of ['x-csrf-token', 'x-irs-csrf-token']) {
      const response = await session.call((headers) =>
        transport.send({
          operation: 'currentVaultNetworks',
          headers: { authorization: headers.authorization!, [name]: headers[name]! },
        }),
      );
      expect(response.status).toBe(200);
    }
  });

  it('an injected 5xx is retryable and the next call succeeds', async () => {
    await sandboxCall(sandbox, 'POST', '/sandbox/v1/faults', {
      api: { failNext: 1, failStatus: 503, routes: ['currentVaultNetworks'] },
    });
    expect(await rejection(client.getCurrentVaultNetworks())).toMatchObject({
      status: 503,
      code: 'server_error',
      retryable: true,
    });
    await expect(client.getCurrentVaultNetworks()).resolves.toBeDefined();
  });
});
