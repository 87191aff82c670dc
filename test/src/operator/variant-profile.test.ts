/**
 * A sandbox serving the variant profile (test/fixtures/operator-profiles/variant.json), over HTTP: it speaks that
 * operator's routes, CSRF header, login fields, error body and statuses, paging parameters, words and link fields;
 * the operator client given the same profile hands the rest of the product our own words; one given ours fails
 * with errors that say where.
 */
import request from 'supertest';
import type { OperatorProfile } from '../../../src/domain/operator-profile';
import { NETWORKS, TRANSACTION_KINDS } from '../../../src/domain/vocabulary';
import type { OperatorClient } from '../../../src/operator/client';
import { OperatorError, OperatorResponseError } from '../../../src/operator/errors';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { EMAIL, newClient, PASSCODE, sandboxCall, startTestSandbox } from '../../helpers/operator';
import { variantProfile } from '../../helpers/operator-profiles';
import { waitFor } from '../../helpers/wait';

const networks = [NETWORKS.ethereum, NETWORKS.tron];

let sandbox: RunningSandbox;
let profile: OperatorProfile;
let client: OperatorClient;

beforeAll(async () => {
  profile = variantProfile();
  sandbox = await startTestSandbox({ profile });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.reset();
  client = newClient(sandbox, { config: { profile } });
});

async function rejection(promise: Promise<unknown>): Promise<OperatorError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OperatorError);
  return error as OperatorError;
}

/** Master, gas and one deposit wallet, the account step, gas; an off-ramp and an on-ramp run to their end. */
async function settledRamps() {
  const master = await client.createWallet({ networks, externalUserId: 'ramp-orchestrator/master' });
  const gas = await client.createWallet({ networks, externalUserId: 'ramp-orchestrator/gas' });
  const user = await client.createWallet({ networks, externalUserId: 'end-user:variant' });
  await sandboxCall(sandbox, 'PUT', '/sandbox/v1/account', {
    masterWalletId: master.id,
    gasWalletId: gas.id,
  });
  await sandboxCall(sandbox, 'POST', `/sandbox/v1/wallets/${gas.id}/balances`, {
    asset: 'TRX',
    amount: '500',
  });
  const tron = (await client.getWalletAddresses(user.id)).find(
    (entry) => entry.network.name === NETWORKS.tron,
  )!;
  const offRamp = await sandboxCall<{ data: { transactionId: string } }>(
    sandbox,
    'POST',
    '/sandbox/v1/offramp/deposits',
    {
      address: tron.address,
      coin: 'USDT',
      amount: '50',
    },
  );
  const onRamp = await sandboxCall<{ data: { orderId: string; transactionId: string } }>(
    sandbox,
    'POST',
    '/sandbox/v1/onramp/deposits',
    { reference: 'variant-ref-1', amount: '1000', coinTo: 'USDT', chainTo: 'TRX' },
  );
  await waitFor(
    async () =>
      (await sandboxCall<{ data: Array<{ status: string }> }>(sandbox, 'GET', '/sandbox/v1/offramp/runs'))
        .body.data[0]?.status === 'completed',
    'the off-ramp to complete',
  );
  await waitFor(
    async () =>
      (await client.getTransaction(onRamp.body.data.transactionId).catch(() => undefined))?.status ===
      'confirmed',
    'the on-ramp deposit to confirm',
  );
  return { master, user, depositId: offRamp.body.data.transactionId, onRamp: onRamp.body.data };
}

describe('a sandbox serving the variant profile', () => {
  it('serves its login, CSRF header, error body and statuses, and nothing at our routes', async () => {
    await request(sandbox.url).post('/auth/private/v1/sessions').send({}).expect(404);
    const started = await request(sandbox.url)
      .post(profile.routes.startSession.split(' ')[1]!)
      .send({})
      .expect(200);
    const refused = await request(sandbox.url)
      .post(profile.routes.authenticate.split(' ')[1]!)
      .send({ sessionId: started.body.data.id, email: EMAIL, passcode: PASSCODE })
      .expect(400);
    expect(refused.body).toEqual({
      errorCode: 'validation_error',
      detail: { message: expect.stringContaining('loginSessionId') },
    });

    const again = await request(sandbox.url)
      .post(profile.routes.startSession.split(' ')[1]!)
      .send({})
      .expect(200);
    const session = await request(sandbox.url)
      .post(profile.routes.authenticate.split(' ')[1]!)
      .send({ loginSessionId: again.body.data.id, username: EMAIL, code: PASSCODE })
      .expect(200);
    const { token, csrfToken } = session.body.data.session as { token: string; csrfToken: string };
    const networksPath = profile.routes.currentVaultNetworks.split(' ')[1]!;
    await request(sandbox.url)
      .get(networksPath)
      .set({ authorization: `Bearer ${token}`, 'x-irs-csrf-token': csrfToken })
      .expect(200);
    const ourHeader = await request(sandbox.url)
      .get(networksPath)
      .set({ authorization: `Bearer ${token}`, 'x-csrf-token': csrfToken })
      .expect(profile.errors.statuses.csrf);
    expect(ourHeader.body).toMatchObject({ errorCode: 'csrf_missing' });
    await request(sandbox.url)
      .get(networksPath)
      .set({ 'x-irs-csrf-token': csrfToken })
      .expect(profile.errors.statuses.unauthenticated);
    const unknown = await request(sandbox.url)
      .get('/wallets/private/v1/wallets/no-such-wallet/addresses')
      .set({ authorization: `Bearer ${token}`, 'x-irs-csrf-token': csrfToken })
      .expect(profile.errors.statuses.notFound);
    expect(unknown.body).toEqual({
      errorCode: 'not_found',
      detail: { message: 'wallet no-such-wallet was not found' },
    });
  });

  it("the client given the same profile settles both ramps' reads in our words and pages with its parameters", async () => {
    const { master, user, depositId, onRamp } = await settledRamps();
    const deposit = await client.getTransaction(depositId);
    expect(deposit).toMatchObject({ ...TRANSACTION_KINDS.deposit, status: 'confirmed', walletId: user.id });
    const sweep = await client.getTransaction(deposit.relatedTransactionId!);
    expect(sweep).toMatchObject({
      ...TRANSACTION_KINDS.sweep,
      status: 'confirmed',
      relatedTransactionId: depositId,
    });
    const offRampOrder = await client.getOrder(sweep.orderId!);
    expect(offRampOrder).toMatchObject({
      status: 'executed',
      direction: 'off-ramp',
      transactionId: depositId,
    });
    const kinds = (await client.listWalletTransactions(master.id)).map((tx) => [
      tx.type,
      tx.subtype,
      tx.status,
    ]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        [TRANSACTION_KINDS.orderSettlement.type, TRANSACTION_KINDS.orderSettlement.subtype, 'completed'],
        [TRANSACTION_KINDS.deposit.type, TRANSACTION_KINDS.deposit.subtype, 'confirmed'],
      ]),
    );
    const onRampOrder = await client.getOrder(onRamp.orderId);
    expect(onRampOrder).toMatchObject({
      status: 'executed',
      direction: 'on-ramp',
      transactionId: onRamp.transactionId,
    });
    // The raw answer is the variant's, word for word.
    const raw = await request(sandbox.url).get(`/sandbox/v1/events?resourceId=${depositId}`).expect(200);
    expect(
      (raw.body.data as Array<{ payload: { newStatus?: string } }>).map((event) => event.payload.newStatus),
    ).toContain('CONFIRMED');

    // Paging: pages of one under the profile's names, and every recipient across them.
    for (const url of ['https://a.example/hook', 'https://b.example/hook', 'https://c.example/hook'])
      await client.createRecipients('transaction', [url]);
    const second = await client.listRecipients('transaction', { page: 2, limit: 1 });
    expect(second.pagination).toMatchObject({ currentPage: 2, limit: 1, totalRecord: 3 });
    expect(await client.listAllRecipients('transaction')).toHaveLength(3);
    const [first] = await client.listAllRecipients('transaction');
    await client.deleteRecipient('transaction', first!.id);
    const gone = await rejection(client.getRecipient('transaction', first!.id));
    expect(gone).toMatchObject({
      code: 'not_found',
      status: profile.errors.statuses.notFound,
      operatorCode: 'not_found',
    });
  });

  it('a client with our assumptions cannot log in there, and says where', async () => {
    const ours = newClient(sandbox);
    const error = await rejection(ours.ensureSession());
    expect(error).toMatchObject({ operation: 'startSession', status: 404 });
    expect(error.message).toContain('HTTP 404');
  });

  it('a transaction in words the profile lacks fails its read instead of passing as one of ours', async () => {
    const strict: OperatorProfile = {
      ...profile,
      vocabulary: {
        ...profile.vocabulary,
        transactionStatuses: { ...profile.vocabulary.transactionStatuses, confirmed: 'DONE' },
      },
    };
    const { depositId } = await settledRamps();
    const error = await rejection(
      newClient(sandbox, { config: { profile: strict } }).getTransaction(depositId),
    );
    expect(error).toBeInstanceOf(OperatorResponseError);
    expect(error.message).toMatch(/status/);
  });
});
