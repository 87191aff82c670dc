import request from 'supertest';
import { isTronAddress } from '../../../src/sandbox/addresses';
import type { RunningSandbox } from '../../../src/sandbox/server';
import {
  order,
  quote,
  recipientPage,
  transaction,
  wallet,
  walletAddressesPage,
  webhookRecipient,
} from '../../../src/operator/schemas';
import { createWallet, login, setUpAccount, startTestSandbox, type Auth } from '../../helpers/sandbox';

describe('sandbox resources', () => {
  let sandbox: RunningSandbox;
  let auth: Auth;
  beforeEach(async () => {
    sandbox = await startTestSandbox();
    auth = await login(sandbox);
  });
  afterEach(() => sandbox.close());

  describe('webhook recipients', () => {
    it('refuses a whole request with a non-https URL and stores nothing', async () => {
      for (const path of ['/webhooks/private/v1/recipients', '/webhooks/private/v1/order-recipients']) {
        const refused = await request(sandbox.url)
          .post(path)
          .set(auth.headers)
          .send({ urls: ['https://ok.example/hook', 'http://plain.example/hook'] })
          .expect(400);
        expect(refused.body.error).toMatchObject({ code: 'validation_error' });
        expect(refused.body.error.message).toContain('https://');
        const listed = await request(sandbox.url).get(path).set(auth.headers).expect(200);
        expect(listed.body.data).toEqual([]);
        expect(listed.body.pagination).toEqual({ currentPage: 1, totalPage: 0, totalRecord: 0, limit: 10 });
      }
    });

    it('creates (201, data = created), lists with paging (default limit 10), gets and deletes', async () => {
      const urls = Array.from({ length: 12 }, (_, index) => `https://receiver.example/hooks/${index}`);
      await request(sandbox.url)
        .post('/webhooks/private/v1/recipients')
        .set(auth.headers)
        .send({ urls: urls.slice(0, 10) })
        .expect(201);
      const created = await request(sandbox.url)
        .post('/webhooks/private/v1/recipients')
        .set(auth.headers)
        .send({ urls: urls.slice(10) })
        .expect(201);
      const createdRecipients = (created.body.data as unknown[]).map((item) => webhookRecipient.parse(item));
      expect(createdRecipients.map((recipient) => recipient.url)).toEqual(urls.slice(10));

      const first = recipientPage.parse(
        (await request(sandbox.url).get('/webhooks/private/v1/recipients').set(auth.headers).expect(200))
          .body,
      );
      expect(first.data).toHaveLength(10);
      expect(first.pagination).toEqual({ currentPage: 1, totalPage: 2, totalRecord: 12, limit: 10 });
      const second = recipientPage.parse(
        (
          await request(sandbox.url)
            .get('/webhooks/private/v1/recipients?page=2')
            .set(auth.headers)
            .expect(200)
        ).body,
      );
      expect(second.data.map((recipient) => recipient.url)).toEqual(urls.slice(10));
      const small = recipientPage.parse(
        (
          await request(sandbox.url)
            .get('/webhooks/private/v1/recipients?page=3&limit=5')
            .set(auth.headers)
            .expect(200)
        ).body,
      );
      expect(small.data).toHaveLength(2);
      expect(small.pagination).toEqual({ currentPage: 3, totalPage: 3, totalRecord: 12, limit: 5 });
      await request(sandbox.url).get('/webhooks/private/v1/recipients?page=0').set(auth.headers).expect(400);

      const id = createdRecipients[0]!.id;
      const got = await request(sandbox.url)
        .get(`/webhooks/private/v1/recipients/${id}`)
        .set(auth.headers)
        .expect(200);
      expect(got.body.data.url).toBe(urls[10]);
      // The two kinds are separate.
      await request(sandbox.url)
        .get(`/webhooks/private/v1/order-recipients/${id}`)
        .set(auth.headers)
        .expect(404);
      await request(sandbox.url)
        .delete(`/webhooks/private/v1/recipients/${id}`)
        .set(auth.headers)
        .expect(200);
      const gone = await request(sandbox.url)
        .get(`/webhooks/private/v1/recipients/${id}`)
        .set(auth.headers)
        .expect(404);
      expect(gone.body.error.code).toBe('not_found');
      await request(sandbox.url)
        .delete(`/webhooks/private/v1/recipients/${id}`)
        .set(auth.headers)
        .expect(404);
    });
  });

  describe('wallets and addresses', () => {
    it('creates wallets whose addresses look real and are unique', async () => {
      const created = await request(sandbox.url)
        .post('/wallets/private/v1/wallets')
        .set(auth.headers)
        .send({ networks: ['networks/ethereum-mainnet', 'networks/tron-mainnet'], externalUserId: 'user-1' })
        .expect(201);
      const parsed = wallet.parse(created.body.data);
      expect(parsed.externalUserId).toBe('user-1');
      expect(parsed.balances).toEqual([]);
      expect(parsed.networks.map((entry) => entry.network.name)).toEqual([
        'networks/ethereum-mainnet',
        'networks/tron-mainnet',
      ]);

      const page = walletAddressesPage.parse(
        (
          await request(sandbox.url)
            .get(`/wallets/private/v1/wallets/${parsed.id}/addresses`)
            .set(auth.headers)
            .expect(200)
        ).body,
      );
      expect(page.pagination).toEqual({ totalRecord: 2, totalPage: 1, offset: 0, limit: 10, pageNumber: 1 });
      const [ethereum, tron] = page.data;
      expect(ethereum!.address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(tron!.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      expect(isTronAddress(tron!.address)).toBe(true);

      const onePerPage = walletAddressesPage.parse(
        (
          await request(sandbox.url)
            .get(`/wallets/private/v1/wallets/${parsed.id}/addresses?page=2&limit=1`)
            .set(auth.headers)
            .expect(200)
        ).body,
      );
      expect(onePerPage.data.map((entry) => entry.address)).toEqual([tron!.address]);
      expect(onePerPage.pagination).toEqual({
        totalRecord: 2,
        totalPage: 2,
        offset: 1,
        limit: 1,
        pageNumber: 2,
      });

      const seen = new Set<string>([ethereum!.address, tron!.address]);
      for (let index = 0; index < 25; index += 1) {
        const other = await createWallet(sandbox, auth, `user-${index + 2}`);
        for (const address of Object.values(other.addresses)) seen.add(address);
      }
      expect(seen.size).toBe(52);

      await request(sandbox.url)
        .get('/wallets/private/v1/wallets/unknown/addresses')
        .set(auth.headers)
        .expect(404);
      await request(sandbox.url)
        .post('/wallets/private/v1/wallets')
        .set(auth.headers)
        .send({ networks: ['networks/solana-mainnet'], externalUserId: 'x' })
        .expect(400);
      const calls = await request(sandbox.url)
        .get('/sandbox/v1/calls?route=createWallet&status=201')
        .expect(200);
      expect(calls.body.data[0]).toMatchObject({
        method: 'POST',
        route: 'createWallet',
        path: '/wallets/private/v1/wallets',
        externalUserId: 'user-1',
      });
      expect(calls.body.data).toHaveLength(26);
    });

    it('credits balances through the simulation endpoint and shows them per address', async () => {
      const created = await createWallet(sandbox, auth, 'gas');
      await request(sandbox.url)
        .post(`/sandbox/v1/wallets/${created.id}/balances`)
        .send({ asset: 'TRX', amount: '100.5' })
        .expect(200);
      const again = await request(sandbox.url)
        .post(`/sandbox/v1/wallets/${created.id}/balances`)
        .send({ asset: 'TRX', amount: '0.25' })
        .expect(200);
      expect(again.body.data).toMatchObject({
        network: 'networks/tron-mainnet',
        asset: 'TRX',
        amount: '100.75',
      });
      await request(sandbox.url)
        .post(`/sandbox/v1/wallets/${created.id}/balances`)
        .send({ asset: 'USDT', amount: '5' })
        .expect(400);
      await request(sandbox.url)
        .post(`/sandbox/v1/wallets/${created.id}/balances`)
        .send({ asset: 'USDT', amount: '5', network: 'ETH' })
        .expect(200);
      await request(sandbox.url)
        .post(`/sandbox/v1/wallets/${created.id}/balances`)
        .send({ asset: 'ETH', amount: 1 })
        .expect(400);
      const negative = await request(sandbox.url)
        .post(`/sandbox/v1/wallets/${created.id}/balances`)
        .send({ asset: 'TRX', amount: '-5' })
        .expect(400);
      expect(negative.body.error.message).toBe(
        'Invalid request body: amount: must be a decimal string greater than zero such as "100.50"',
      );
      const page = walletAddressesPage.parse(
        (
          await request(sandbox.url)
            .get(`/wallets/private/v1/wallets/${created.id}/addresses`)
            .set(auth.headers)
            .expect(200)
        ).body,
      );
      expect(page.data.map((entry) => entry.balances)).toEqual([
        [{ asset: 'USDT', amount: '5' }],
        [{ asset: 'TRX', amount: '100.75' }],
      ]);
    });

    it('sets a balance to exactly an amount, zero included, and refuses anything else with a clear error', async () => {
      const created = await createWallet(sandbox, auth, 'gas-set');
      const set = (body: object) =>
        request(sandbox.url).put(`/sandbox/v1/wallets/${created.id}/balances`).send(body);
      await request(sandbox.url)
        .post(`/sandbox/v1/wallets/${created.id}/balances`)
        .send({ asset: 'TRX', amount: '100.5' })
        .expect(200);
      expect((await set({ asset: 'TRX', amount: '5' }).expect(200)).body.data).toEqual({
        walletId: created.id,
        network: 'networks/tron-mainnet',
        asset: 'TRX',
        amount: '5',
      });
      expect(
        (await set({ asset: 'USDT', amount: '7.25', network: 'TRX' }).expect(200)).body.data.amount,
      ).toBe('7.25');
      await set({ asset: 'TRX', amount: '0' }).expect(200);
      for (const [body, message] of [
        [{ asset: 'TRX', amount: '-5' }, 'must be a non-negative decimal string'],
        [{ asset: 'TRX', amount: 5 }, 'amount'],
        [{ asset: 'USDT', amount: '1' }, 'Give the network of USDT'],
        [
          { asset: 'TRX', amount: '1', network: 'networks/solana-mainnet' },
          'is not on networks/solana-mainnet',
        ],
      ] as const) {
        const refused = await set(body).expect(400);
        expect(JSON.stringify(refused.body.error)).toContain(message);
      }
      const page = walletAddressesPage.parse(
        (
          await request(sandbox.url)
            .get(`/wallets/private/v1/wallets/${created.id}/addresses`)
            .set(auth.headers)
            .expect(200)
        ).body,
      );
      expect(page.data.map((entry) => entry.balances)).toEqual([
        [],
        [
          { asset: 'TRX', amount: '0' },
          { asset: 'USDT', amount: '7.25' },
        ],
      ]);
    });
  });

  describe('quotes', () => {
    it('answers an on-ramp and an off-ramp quote with a decimal target amount and a 25 s expiry', async () => {
      const before = Date.now();
      const onRamp = await request(sandbox.url)
        .post('/core-conversions/private/v1/quotes')
        .set(auth.headers)
        .send({ coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '1725' })
        .expect(201);
      const parsedOn = quote.parse(onRamp.body.data);
      // 1725 MXN / 17.25 = 100 USDT, minus 0.5 % fee
      expect(parsedOn.target_amount).toBe('99.5');
      const expiresIn = Date.parse(parsedOn.expires_at) - before;
      expect(expiresIn).toBeGreaterThanOrEqual(24_000);
      expect(expiresIn).toBeLessThanOrEqual(26_000);

      const offRamp = await request(sandbox.url)
        .post('/core-conversions/private/v1/quotes')
        .set(auth.headers)
        .send({ coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '10.01' })
        .expect(201);
      // 10.01 * 17.25 = 172.6725, minus 0.5 % = 171.8091..., rounded down to cents
      expect(quote.parse(offRamp.body.data).target_amount).toBe('171.8');
    });

    it('refuses bad input with 400', async () => {
      const bad = [
        { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: 100 },
        { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '-1' },
        { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '0' },
        { coinFrom: 'MXN', chainTo: 'SOL', coinTo: 'USDT', amountFrom: '100' },
        { coinFrom: 'MXN', coinTo: 'USDT', amountFrom: '100' },
        { coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '100', extra: true },
      ];
      for (const body of bad) {
        const refused = await request(sandbox.url)
          .post('/core-conversions/private/v1/quotes')
          .set(auth.headers)
          .send(body)
          .expect(400);
        expect(typeof refused.body.error.code).toBe('string');
      }
      await request(sandbox.url)
        .post('/core-conversions/private/v1/quotes')
        .set(auth.headers)
        .set('content-type', 'application/json')
        .send('{not json')
        .expect(400);
    });

    it('refuses an expired quote where it is used (on-ramp simulation), and a quote used twice', async () => {
      await setUpAccount(sandbox, auth);
      const issue = async () =>
        (
          await request(sandbox.url)
            .post('/core-conversions/private/v1/quotes')
            .set(auth.headers)
            .send({ coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '1000' })
            .expect(201)
        ).body.data as { id: string; target_amount: string };
      const fresh = await issue();
      const used = await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({ reference: 'ref-quoted', amount: '1000', coinTo: 'USDT', chainTo: 'TRX', quoteId: fresh.id })
        .expect(202);
      expect(used.body.data.amountTo).toBe(fresh.target_amount);
      const twice = await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({
          reference: 'ref-quoted-2',
          amount: '1000',
          coinTo: 'USDT',
          chainTo: 'TRX',
          quoteId: fresh.id,
        })
        .expect(409);
      expect(twice.body.error.code).toBe('quote_used');

      const stale = await issue();
      await request(sandbox.url).post('/sandbox/v1/clock').send({ advance: '26s' }).expect(200);
      const expired = await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({ reference: 'ref-stale', amount: '1000', coinTo: 'USDT', chainTo: 'TRX', quoteId: stale.id })
        .expect(409);
      expect(expired.body.error.code).toBe('quote_expired');
      const orders = await request(sandbox.url).get('/sandbox/v1/events?eventType=order-created').expect(200);
      expect(orders.body.data).toHaveLength(1);
    });
  });

  describe('account step and details', () => {
    it('refuses ramp simulations with 409 until the account setup is done', async () => {
      const onRamp = await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({ reference: 'r1', amount: '100', coinTo: 'USDT', chainTo: 'TRX' })
        .expect(409);
      expect(onRamp.body.error.code).toBe('account_not_configured');
      expect(onRamp.body.error.message).toContain('/sandbox/v1/account');
      const user = await createWallet(sandbox, auth, 'user-1');
      const offRamp = await request(sandbox.url)
        .post('/sandbox/v1/offramp/deposits')
        .send({ address: user.addresses['networks/tron-mainnet'], coin: 'USDT', amount: '10' })
        .expect(409);
      expect(offRamp.body.error.code).toBe('account_not_configured');

      const master = await createWallet(sandbox, auth, 'master');
      const tronOnly = await request(sandbox.url)
        .post('/wallets/private/v1/wallets')
        .set(auth.headers)
        .send({ networks: ['networks/tron-mainnet'], externalUserId: 'gas' })
        .expect(201);
      await request(sandbox.url)
        .put('/sandbox/v1/account')
        .send({ masterWalletId: master.id, gasWalletId: 'nope' })
        .expect(404);
      const notBoth = await request(sandbox.url)
        .put('/sandbox/v1/account')
        .send({ masterWalletId: master.id, gasWalletId: tronOnly.body.data.id })
        .expect(400);
      expect(notBoth.body.error.code).toBe('gas_wallet_networks');
      const gas = await createWallet(sandbox, auth, 'gas');
      await request(sandbox.url)
        .put('/sandbox/v1/account')
        .send({ masterWalletId: master.id, gasWalletId: gas.id })
        .expect(200);
      await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({ reference: 'r1', amount: '100', coinTo: 'USDT', chainTo: 'TRX' })
        .expect(202);
      const duplicate = await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({ reference: 'r1', amount: '100', coinTo: 'USDT', chainTo: 'TRX' })
        .expect(409);
      expect(duplicate.body.error.code).toBe('duplicate_reference');
      await request(sandbox.url)
        .post('/sandbox/v1/offramp/deposits')
        .send({ address: 'TNotAnAddressOfThisSandbox', coin: 'USDT', amount: '10' })
        .expect(404);
    });

    it('serves Get Order and Get Transaction with the schema fields, 404 for unknown ids', async () => {
      await setUpAccount(sandbox, auth);
      const started = await request(sandbox.url)
        .post('/sandbox/v1/onramp/deposits')
        .send({ reference: 'r-details', amount: '345', coinTo: 'USDT', chainTo: 'ETH' })
        .expect(202);
      const { orderId, transactionId } = started.body.data as { orderId: string; transactionId: string };
      const got = order.parse(
        (
          await request(sandbox.url)
            .get(`/core-conversions/private/v1/orders/${orderId}`)
            .set(auth.headers)
            .expect(200)
        ).body.data,
      );
      expect(got).toMatchObject({
        id: orderId,
        orderReference: 'r-details',
        direction: 'on-ramp',
        coinFrom: 'MXN',
        coinTo: 'USDT',
        amountFrom: '345',
        amountTo: '19.9',
      });
      await request(sandbox.url)
        .get('/core-conversions/private/v1/orders/unknown')
        .set(auth.headers)
        .expect(404);
      await request(sandbox.url)
        .get('/wallets/private/v1/transactions/unknown')
        .set(auth.headers)
        .expect(404);
      // The transaction exists once the order has executed (a few scaled steps later).
      for (let tries = 0; tries < 500; tries += 1) {
        const response = await request(sandbox.url)
          .get(`/wallets/private/v1/transactions/${transactionId}`)
          .set(auth.headers);
        if (response.status === 200 && response.body.data.status === 'confirmed') {
          const parsed = transaction.parse(response.body.data);
          expect(parsed).toMatchObject({
            type: 'Deposit',
            subtype: 'external',
            network: 'networks/ethereum-mainnet',
            asset: 'USDT',
            amount: '19.9',
            orderId,
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('the on-ramp deposit transaction never confirmed');
    });
  });
});
