/** The sandbox runs on the same server limits as our own servers: client mistakes are JSON 4xx there too. */
import type { RunningSandbox } from '../../../src/sandbox/server';
import { rawRequest, requestText } from '../../helpers/raw-http';
import { startTestSandbox } from '../../helpers/sandbox';

describe('sandbox HTTP limits', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  test('a malformed percent-encoding is a 400, an oversize URL a JSON 431', async () => {
    const target = { host: '127.0.0.1', port: sandbox.port };
    const malformed = await rawRequest(target, requestText('GET', '/wallets/private/v1/transactions/%ZZ'));
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ error: { code: 'malformed_uri' } });
    const long = await rawRequest(target, requestText('GET', `/${'a'.repeat(20_000)}`));
    expect(long.status).toBe(431);
    expect(JSON.parse(long.body)).toMatchObject({ error: { code: 'headers_too_large' } });
  });
});
