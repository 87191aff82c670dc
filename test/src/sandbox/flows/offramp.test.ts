import request from 'supertest';
import type { RunningSandbox } from '../../../../src/sandbox/server';
import {
  createWallet,
  login,
  registerRecipients,
  setUpAccount,
  startReceiver,
  startTestSandbox,
  summary,
  type Auth,
  type Receiver,
} from '../../../helpers/sandbox';
import { waitFor } from '../../../helpers/wait';

const TRON = 'networks/tron-mainnet';

describe('off-ramp (Autoswap) sequence', () => {
  let sandbox: RunningSandbox;
  let receiver: Receiver;
  let auth: Auth;
  let master: { id: string; addresses: Record<string, string> };
  let gas: { id: string; addresses: Record<string, string> };

  beforeEach(async () => {
    sandbox = await startTestSandbox({
      timeScale: 0.001,
      stepDelayMs: 2000,
      confirmationDelayMs: 30_000,
      gas: { ETH: { topUp: '0.002', sweep: '0.001' }, TRX: { topUp: '30', sweep: '15' } },
    });
    receiver = await startReceiver();
    auth = await login(sandbox);
    ({ master, gas } = await setUpAccount(sandbox, auth));
    await registerRecipients(sandbox, auth, receiver.url);
  });
  afterEach(async () => {
    await sandbox.close();
    await receiver.close();
  });

  const balances = async (walletId: string, network = TRON) => {
    const response = await request(sandbox.url)
      .get(`/wallets/private/v1/wallets/${walletId}/addresses`)
      .set(auth.headers)
      .expect(200);
    const entry = (
      response.body.data as Array<{
        network: { name: string };
        balances: Array<{ asset: string; amount: string }>;
      }>
    ).find((item) => item.network.name === network);
    return Object.fromEntries((entry?.balances ?? []).map((balance) => [balance.asset, balance.amount]));
  };
  const fund = (walletId: string, asset: string, amount: string) =>
    request(sandbox.url).post(`/sandbox/v1/wallets/${walletId}/balances`).send({ asset, amount }).expect(200);
  const deposit = async (address: string, amount: string) =>
    (
      await request(sandbox.url)
        .post('/sandbox/v1/offramp/deposits')
        .send({ address, coin: 'USDT', amount })
        .expect(202)
    ).body.data as {
      transactionId: string;
    };
  const transactionOf = async (id: string) =>
    (await request(sandbox.url).get(`/wallets/private/v1/transactions/${id}`).set(auth.headers).expect(200))
      .body.data as Record<string, string>;
  const completedCount = () =>
    receiver.received.filter((delivery) => delivery.body.data.payload.newStatus === 'completed').length;

  it('runs deposit, first-deposit gas top-up (once), sweep and settlement, moving balances and paying gas', async () => {
    await fund(gas.id, 'TRX', '100');
    const user = await createWallet(sandbox, auth, 'end-user-1');
    const address = user.addresses[TRON]!;

    const first = await deposit(address, '50');
    await waitFor(() => completedCount() === 1, 'the first Autoswap to complete');
    expect(summary(receiver.received)).toEqual([
      'transaction-created:', // deposit
      'transaction-created:', // gas top-up
      'transaction-updated:mined', // deposit
      'transaction-updated:confirmed', // deposit
      'transaction-updated:confirmed', // top-up
      'transaction-created:', // sweep
      'transaction-updated:confirmed', // sweep
      'transaction-updated:completed', // order transaction
    ]);
    const ids = receiver.received.map((delivery) => delivery.body.data.payload.id!);
    expect(ids[0]).toBe(first.transactionId);
    const topUp = await transactionOf(ids[1]!);
    expect(topUp).toMatchObject({
      type: 'Internal Transfer',
      subtype: 'gas-top-up',
      walletId: gas.id,
      asset: 'TRX',
      amount: '30',
      toAddress: address,
      status: 'confirmed',
    });
    const sweep = await transactionOf(ids[5]!);
    expect(sweep).toMatchObject({
      type: 'AutoSweep',
      subtype: 'sponsored-sweep',
      walletId: user.id,
      fromAddress: address,
      toAddress: master.addresses[TRON],
      amount: '50',
      relatedTransactionId: first.transactionId,
    });
    // Links for polling clients: deposit -> its sweep, sweep -> the AutoSwap order.
    expect(await transactionOf(first.transactionId)).toMatchObject({
      relatedTransactionId: ids[5],
      orderId: null,
    });
    const settlement = await transactionOf(ids[7]!);
    expect(sweep.orderId).toBe(settlement.orderId);
    expect(settlement).toMatchObject({
      type: 'AutoSwap',
      subtype: 'order-settlement',
      status: 'completed',
      relatedTransactionId: first.transactionId,
    });
    const orderResponse = await request(sandbox.url)
      .get(`/core-conversions/private/v1/orders/${settlement.orderId}`)
      .set(auth.headers)
      .expect(200);
    // 50 USDT * 17.25 = 862.5 MXN, minus 0.5 % = 858.1875 -> 858.18
    expect(orderResponse.body.data).toMatchObject({
      direction: 'off-ramp',
      status: 'executed',
      coinFrom: 'USDT',
      coinTo: 'MXN',
      amountFrom: '50',
      amountTo: '858.18',
    });

    expect(await balances(gas.id)).toEqual({ TRX: '55' }); // 100 - 30 top-up - 15 sweep
    expect(await balances(user.id)).toEqual({ TRX: '30', USDT: '0' });
    expect(await balances(master.id)).toEqual({ USDT: '50' });

    // The second deposit to the same wallet needs no top-up.
    receiver.received.length = 0;
    await deposit(address, '20');
    await waitFor(() => completedCount() === 1, 'the second Autoswap to complete');
    expect(summary(receiver.received)).toEqual([
      'transaction-created:',
      'transaction-updated:mined',
      'transaction-updated:confirmed',
      'transaction-created:',
      'transaction-updated:confirmed',
      'transaction-updated:completed',
    ]);
    expect(await balances(gas.id)).toEqual({ TRX: '40' });
    expect(await balances(master.id)).toEqual({ USDT: '70' });
    const topUps = [...sandbox.state.transactions.values()].filter(
      (record) => record.type === 'Internal Transfer',
    );
    expect(topUps).toHaveLength(1);
  });

  it('strands the deposit when the gas wallet cannot pay, and resumes when the gas wallet is funded or set higher', async () => {
    const user = await createWallet(sandbox, auth, 'end-user-2');
    const address = user.addresses[TRON]!;
    const { transactionId } = await deposit(address, '12.5');

    await waitFor(async () => {
      const runs = await request(sandbox.url).get('/sandbox/v1/offramp/runs?status=stranded').expect(200);
      const run = (
        runs.body.data as Array<{ depositId: string; depositConfirmed: boolean; stranded: string }>
      ).find((item) => item.depositId === transactionId);
      return run?.depositConfirmed === true && run.stranded === 'gas_top_up';
    }, 'the run to be stranded with its deposit confirmed');
    // The deposit stays in the deposit wallet, unsettled, and visible; no sweep happened.
    expect(await balances(user.id)).toEqual({ USDT: '12.5' });
    expect((await transactionOf(transactionId)).status).toBe('confirmed');
    expect([...sandbox.state.transactions.values()].some((record) => record.type === 'AutoSweep')).toBe(
      false,
    );

    // Enough for the top-up but not for the sweep: strands again, at the sweep.
    await fund(gas.id, 'TRX', '40');
    await waitFor(
      () => sandbox.offramp.runs.get(transactionId)?.stranded === 'gas_sweep',
      'the run to strand at the sweep',
    );
    expect(await balances(user.id)).toEqual({ USDT: '12.5', TRX: '30' });
    expect(await balances(gas.id)).toEqual({ TRX: '10' });

    // Set lower, it stays stranded; set to exactly the sweep's cost, it resumes and leaves nothing.
    await request(sandbox.url)
      .put(`/sandbox/v1/wallets/${gas.id}/balances`)
      .send({ asset: 'TRX', amount: '9' })
      .expect(200);
    expect(sandbox.offramp.runs.get(transactionId)?.stranded).toBe('gas_sweep');
    await request(sandbox.url)
      .put(`/sandbox/v1/wallets/${gas.id}/balances`)
      .send({ asset: 'TRX', amount: '15' })
      .expect(200);
    await waitFor(() => completedCount() === 1, 'the resumed Autoswap to complete');
    expect(await balances(user.id)).toEqual({ USDT: '0', TRX: '30' });
    expect(await balances(master.id)).toEqual({ USDT: '12.5' });
    expect(await balances(gas.id)).toEqual({ TRX: '0' });
    expect(sandbox.offramp.runs.get(transactionId)?.status).toBe('completed');
  });

  it('reports the gas it paid as the fee of the top-up and of the sweep', async () => {
    await fund(gas.id, 'TRX', '100');
    const user = await createWallet(sandbox, auth, 'end-user-fees');
    await deposit(user.addresses[TRON]!, '50');
    await waitFor(() => completedCount() === 1, 'the Autoswap to complete');
    const ids = receiver.received.map((delivery) => delivery.body.data.payload.id!);
    expect((await transactionOf(ids[1]!)).fee).toEqual({ asset: 'TRX', amount: '30' });
    expect((await transactionOf(ids[5]!)).fee).toEqual({ asset: 'TRX', amount: '15' });
    expect((await transactionOf(ids[0]!)).fee).toBeNull();
  });

  it('does not convert an asset it has no market for, nor fewer tokens than its minimum: they stay', async () => {
    await fund(gas.id, 'TRX', '100');
    const user = await createWallet(sandbox, auth, 'end-user-3');
    const address = user.addresses[TRON]!;
    const dai = (
      await request(sandbox.url)
        .post('/sandbox/v1/offramp/deposits')
        .send({ address, coin: 'DAI', amount: '40' })
        .expect(202)
    ).body.data as { transactionId: string };
    const small = await deposit(address, '0.5');
    for (const id of [dai.transactionId, small.transactionId])
      await waitFor(() => sandbox.offramp.runs.get(id)?.status === 'not_converted', 'the deposit to confirm');
    expect(sandbox.offramp.runs.get(dai.transactionId)?.notConverted).toBe('unsupported_asset');
    expect(sandbox.offramp.runs.get(small.transactionId)?.notConverted).toBe('below_minimum');
    expect(await balances(user.id)).toEqual({ DAI: '40', USDT: '0.5' });
    expect(await balances(gas.id)).toEqual({ TRX: '100' });
    // Two deposits, mined and confirmed; no top-up, sweep or order.
    expect(summary(receiver.received).sort()).toEqual([
      'transaction-created:',
      'transaction-created:',
      'transaction-updated:confirmed',
      'transaction-updated:confirmed',
      'transaction-updated:mined',
      'transaction-updated:mined',
    ]);
  });

  it('executes at the price of the moment: a moved price, an order off its earlier quote', async () => {
    await fund(gas.id, 'TRX', '100');
    const quote = await request(sandbox.url)
      .post('/core-conversions/private/v1/quotes')
      .set(auth.headers)
      .send({ coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '50' })
      .expect(201);
    expect(quote.body.data.target_amount).toBe('858.18');
    const moved = await request(sandbox.url).post('/sandbox/v1/prices').send({ USDT: '16.56' }).expect(200);
    expect(moved.body.data).toEqual({ USDT: '16.56', USDC: '17.25' });
    await request(sandbox.url).post('/sandbox/v1/prices').send({ DAI: '1' }).expect(400);
    await request(sandbox.url).post('/sandbox/v1/prices').send({}).expect(400);
    const user = await createWallet(sandbox, auth, 'end-user-4');
    await deposit(user.addresses[TRON]!, '50');
    await waitFor(() => completedCount() === 1, 'the Autoswap to complete');
    const order = [...sandbox.state.orders.values()].find((record) => record.direction === 'off-ramp');
    // 50 x 16.56 = 828, minus 0.5 % = 823.86
    expect(order?.amountTo).toBe('823.86');
  });

  it('refuses deposits to unknown addresses and to the master or gas wallet', async () => {
    await request(sandbox.url)
      .post('/sandbox/v1/offramp/deposits')
      .send({ address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', coin: 'USDT', amount: '1' })
      .expect(404);
    const master400 = await request(sandbox.url)
      .post('/sandbox/v1/offramp/deposits')
      .send({ address: master.addresses[TRON], coin: 'USDT', amount: '1' })
      .expect(400);
    expect(master400.body.error.code).toBe('not_a_deposit_wallet');
    await request(sandbox.url)
      .post('/sandbox/v1/offramp/deposits')
      .send({ address: master.addresses[TRON], coin: 'USDT', amount: '1.5e3' })
      .expect(400);
  });
});
