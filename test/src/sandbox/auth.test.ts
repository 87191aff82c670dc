import request from 'supertest';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { loginSession } from '../../../src/operator/schemas';
import { EMAIL, login, PASSCODE, startTestSandbox } from '../../helpers/sandbox';

const NETWORKS_PATH = '/api/wallets/private/v1/current-vault-networks';

describe('sandbox auth rules', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ sessionIdLifetimeMs: 60_000 });
  });
  afterAll(() => sandbox.close());

  it('starts a login session with the observed fields and a nanosecond expiry', async () => {
    const response = await request(sandbox.url).post('/auth/private/v1/sessions').send({}).expect(200);
    const session = loginSession.parse(response.body.data);
    expect(session).toMatchObject({
      isCompleted: false,
      identityType: 'business-user',
      class: 'login',
      classId: 'api-email-v1',
      activeStep: '1-auth-with-passcode',
    });
    expect(session.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
  });

  it('issues tokens and accepts either CSRF header name', async () => {
    const auth = await login(sandbox);
    await request(sandbox.url)
      .get(NETWORKS_PATH)
      .set({ authorization: `Bearer ${auth.token}`, 'x-csrf-token': auth.csrf })
      .expect(200);
    await request(sandbox.url)
      .get(NETWORKS_PATH)
      .set({ authorization: `Bearer ${auth.token}`, 'x-irs-csrf-token': auth.csrf })
      .expect(200);
    const both = await request(sandbox.url).get(NETWORKS_PATH).set(auth.headers).expect(200);
    expect((both.body.data as Array<{ name: string }>).map((network) => network.name)).toEqual([
      'networks/ethereum-mainnet',
      'networks/tron-mainnet',
    ]);
  });

  it('answers 401 without a token or with an unknown one, 403 for a missing or wrong CSRF value', async () => {
    const auth = await login(sandbox);
    const missing = await request(sandbox.url)
      .get(NETWORKS_PATH)
      .set({ 'x-csrf-token': auth.csrf })
      .expect(401);
    expect(missing.body.error.code).toBe('unauthenticated');
    await request(sandbox.url)
      .get(NETWORKS_PATH)
      .set({ authorization: 'Bearer nope', 'x-csrf-token': auth.csrf })
      .expect(401);
    const noCsrf = await request(sandbox.url)
      .get(NETWORKS_PATH)
      .set({ authorization: `Bearer ${auth.token}` })
      .expect(403);
    expect(noCsrf.body.error.code).toBe('csrf_missing');
    const wrong = await request(sandbox.url)
      .get(NETWORKS_PATH)
      .set({ authorization: `Bearer ${auth.token}`, 'x-irs-csrf-token': 'wrong' })
      .expect(403);
    expect(wrong.body.error.code).toBe('csrf_invalid');
    // The error bodies never echo a secret.
    expect(JSON.stringify([missing.body, noCsrf.body, wrong.body])).not.toContain(auth.csrf);
    // Every operator route but the two login steps requires both.
    await request(sandbox.url)
      .post('/wallets/private/v1/wallets')
      .send({ networks: ['networks/tron-mainnet'], externalUserId: 'x' })
      .expect(401);
    await request(sandbox.url)
      .get('/webhooks/private/v1/recipients')
      .set({ authorization: `Bearer ${auth.token}` })
      .expect(403);
  });

  it('refuses wrong credentials with 401 and never echoes the passcode', async () => {
    const started = await request(sandbox.url).post('/auth/private/v1/sessions').send({}).expect(200);
    const refused = await request(sandbox.url)
      .post('/auth/private/v1/sessions/authenticate')
      .send({ sessionId: started.body.data.id, email: EMAIL, passcode: 'not-the-passcode' })
      .expect(401);
    expect(refused.body.error.code).toBe('invalid_credentials');
    expect(JSON.stringify(refused.body)).not.toContain('not-the-passcode');
  });

  it('uses a login session ID once', async () => {
    const started = await request(sandbox.url).post('/auth/private/v1/sessions').send({}).expect(200);
    const body = { sessionId: started.body.data.id, email: EMAIL, passcode: PASSCODE };
    await request(sandbox.url).post('/auth/private/v1/sessions/authenticate').send(body).expect(200);
    const again = await request(sandbox.url)
      .post('/auth/private/v1/sessions/authenticate')
      .send(body)
      .expect(401);
    expect(again.body.error.code).toBe('session_used');
  });

  it('refuses an expired login session ID', async () => {
    const started = await request(sandbox.url).post('/auth/private/v1/sessions').send({}).expect(200);
    await request(sandbox.url).post('/sandbox/v1/clock').send({ advance: '61s' }).expect(200);
    const expired = await request(sandbox.url)
      .post('/auth/private/v1/sessions/authenticate')
      .send({ sessionId: started.body.data.id, email: EMAIL, passcode: PASSCODE })
      .expect(401);
    expect(expired.body.error.code).toBe('session_expired');
  });

  it('answers 401 token_expired once the token life is over (clock moved past 24 h)', async () => {
    const auth = await login(sandbox);
    await request(sandbox.url).get(NETWORKS_PATH).set(auth.headers).expect(200);
    await request(sandbox.url).post('/sandbox/v1/clock').send({ advance: '24h' }).expect(200);
    const expired = await request(sandbox.url).get(NETWORKS_PATH).set(auth.headers).expect(401);
    expect(expired.body.error.code).toBe('token_expired');
  });

  it('expires every token at once with the expireTokensNow fault', async () => {
    const auth = await login(sandbox);
    await request(sandbox.url).get(NETWORKS_PATH).set(auth.headers).expect(200);
    const faults = await request(sandbox.url)
      .post('/sandbox/v1/faults')
      .send({ expireTokensNow: true })
      .expect(200);
    expect(faults.body.data.expiredTokens).toBeGreaterThanOrEqual(1);
    await request(sandbox.url).get(NETWORKS_PATH).set(auth.headers).expect(401);
    const fresh = await login(sandbox);
    await request(sandbox.url).get(NETWORKS_PATH).set(fresh.headers).expect(200);
  });

  it('logs calls without tokens', async () => {
    const auth = await login(sandbox);
    await request(sandbox.url).get(NETWORKS_PATH).set(auth.headers).expect(200);
    const calls = await request(sandbox.url).get('/sandbox/v1/calls?route=currentVaultNetworks').expect(200);
    expect(calls.body.data.length).toBeGreaterThan(0);
    const records = calls.body.data as Array<{ route: string; status: number }>;
    expect(records.every((call) => call.route === 'currentVaultNetworks')).toBe(true);
    expect(records.map((call) => call.status)).toEqual(expect.arrayContaining([200, 401, 403]));
    const everything = await request(sandbox.url).get('/sandbox/v1/calls').expect(200);
    const logged = JSON.stringify(everything.body);
    expect(logged).not.toMatch(/Bearer|csrf_token|passcode/i);
    for (const secret of [auth.token, auth.csrf, PASSCODE]) expect(logged).not.toContain(secret);
  });
});
