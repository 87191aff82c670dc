/** A sandbox on an ephemeral port for every test that needs one; login, an HTTPS receiver and recipients. */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startSandbox, type RunningSandbox, type SandboxOverrides } from '../../src/sandbox/server';
import { getLocalCertificate } from '../../src/tls/local-certificate';

export const EMAIL = 'sandbox@example.com';
export const PASSCODE = 'sandbox-passcode';

/** A sandbox on an ephemeral loopback port, fast clock, no faults, silent; the default account unless overridden. */
export function startSandboxOnLoopback(overrides: SandboxOverrides = {}): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    seed: 1234,
    timeScale: 0.001,
    email: EMAIL,
    passcode: PASSCODE,
    faults: {},
    ...overrides,
  });
}

export const startTestSandbox = startSandboxOnLoopback;

export interface Auth {
  token: string;
  csrf: string;
  headers: Record<string, string>;
}

export async function login(sandbox: RunningSandbox): Promise<Auth> {
  const started = await request(sandbox.url).post('/auth/private/v1/sessions').send({}).expect(200);
  const authenticated = await request(sandbox.url)
    .post('/auth/private/v1/sessions/authenticate')
    .send({ sessionId: started.body.data.id, email: EMAIL, passcode: PASSCODE })
    .expect(200);
  const { token, csrfToken } = authenticated.body.data.session as { token: string; csrfToken: string };
  return {
    token,
    csrf: csrfToken,
    headers: { authorization: `Bearer ${token}`, 'x-csrf-token': csrfToken, 'x-irs-csrf-token': csrfToken },
  };
}

export async function createWallet(
  sandbox: RunningSandbox,
  auth: Auth,
  externalUserId: string,
): Promise<{ id: string; addresses: Record<string, string> }> {
  const created = await request(sandbox.url)
    .post('/wallets/private/v1/wallets')
    .set(auth.headers)
    .send({ networks: ['networks/ethereum-mainnet', 'networks/tron-mainnet'], externalUserId })
    .expect(201);
  const id = created.body.data.id as string;
  const listed = await request(sandbox.url)
    .get(`/wallets/private/v1/wallets/${id}/addresses`)
    .set(auth.headers)
    .expect(200);
  const addresses: Record<string, string> = {};
  for (const entry of listed.body.data as Array<{ address: string; network: { name: string } }>)
    addresses[entry.network.name] = entry.address;
  return { id, addresses };
}

/** Master and gas wallets plus the out-of-band account step. */
export async function setUpAccount(sandbox: RunningSandbox, auth: Auth) {
  const master = await createWallet(sandbox, auth, 'ramp-orchestrator/master');
  const gas = await createWallet(sandbox, auth, 'ramp-orchestrator/gas');
  await request(sandbox.url)
    .put('/sandbox/v1/account')
    .send({ masterWalletId: master.id, gasWalletId: gas.id })
    .expect(200);
  return { master, gas };
}

export interface ReceivedDelivery {
  path: string;
  body: { data: { eventType: string; payload: Record<string, string> } };
  attempt: string | undefined;
}

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  /** Status to answer for the next deliveries (default 200). */
  respond: (delivery: ReceivedDelivery, index: number) => number;
  close(): Promise<void>;
}

/** A local HTTPS webhook receiver with a self-signed certificate, on 127.0.0.1. */
export async function startReceiver(respond: Receiver['respond'] = () => 200): Promise<Receiver> {
  const { key, cert } = await getLocalCertificate();
  const receiver: Receiver = { url: '', received: [], respond, close: () => Promise.resolve() };
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery: ReceivedDelivery = {
        path: req.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedDelivery['body'],
        attempt: req.headers['x-sandbox-attempt'] as string | undefined,
      };
      const index = receiver.received.push(delivery) - 1;
      res.statusCode = receiver.respond(delivery, index);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export async function registerRecipients(sandbox: RunningSandbox, auth: Auth, url: string): Promise<void> {
  await request(sandbox.url)
    .post('/webhooks/private/v1/recipients')
    .set(auth.headers)
    .send({ urls: [`${url}/tx`] })
    .expect(201);
  await request(sandbox.url)
    .post('/webhooks/private/v1/order-recipients')
    .set(auth.headers)
    .send({ urls: [`${url}/orders`] })
    .expect(201);
}

export const summary = (deliveries: readonly ReceivedDelivery[]) =>
  deliveries.map(({ body }) => `${body.data.eventType}:${body.data.payload.newStatus ?? ''}`);
