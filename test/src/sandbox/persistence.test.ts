/** A sandbox with a state file keeps wallets, balances, recipients and the account step across a restart. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { login, setUpAccount, startTestSandbox } from '../../helpers/sandbox';

describe('sandbox state file', () => {
  test('a restarted sandbox serves the same wallets, balances, recipients and account step', async () => {
    const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-')), 'state.json');
    const first = await startTestSandbox({ stateFile });
    const auth = await login(first);
    const { master, gas } = await setUpAccount(first, auth);
    await request(first.url)
      .post(`/sandbox/v1/wallets/${gas.id}/balances`)
      .send({ asset: 'TRX', amount: '12.5' })
      .expect(200);
    await request(first.url)
      .post('/webhooks/private/v1/recipients')
      .set(auth.headers)
      .send({ urls: ['https://127.0.0.1:8443/hook'] })
      .expect(201);
    await first.close();

    const second = await startTestSandbox({ stateFile });
    try {
      // Tokens are not kept: a client logs in again, as after an operator restart.
      await request(second.url)
        .get(`/wallets/private/v1/wallets/${master.id}/addresses`)
        .set(auth.headers)
        .expect(401);
      const again = await login(second);
      const addresses = await request(second.url)
        .get(`/wallets/private/v1/wallets/${gas.id}/addresses`)
        .set(again.headers)
        .expect(200);
      const tron = (
        addresses.body.data as Array<{
          address: string;
          network: { name: string };
          balances: Array<{ asset: string; amount: string }>;
        }>
      ).find((entry) => entry.network.name === 'networks/tron-mainnet');
      expect(tron?.address).toBe(gas.addresses['networks/tron-mainnet']);
      expect(tron?.balances).toEqual(
        expect.arrayContaining([expect.objectContaining({ asset: 'TRX', amount: '12.5' })]),
      );
      const recipients = await request(second.url)
        .get('/webhooks/private/v1/recipients')
        .set(again.headers)
        .expect(200);
      expect(recipients.body.data).toHaveLength(1);
      const account = await request(second.url).get('/sandbox/v1/account').expect(200);
      expect(JSON.stringify(account.body)).toContain(master.id);
    } finally {
      await second.close();
    }
  });
});
