/**
 * No identifier can change the operator route it is put into: a forged ID of `..` once sent authenticated GETs to
 * /wallets/private/v1/ and /core-conversions/private/v1/ instead of the transaction and order routes.
 */
import pino from 'pino';
import {
  DEFAULT_OPERATOR_PROFILE,
  DEFAULT_ROUTES,
  ROUTES_WITH_ID,
  type RouteName,
} from '../../../src/domain/operator-profile';
import { OperatorClient } from '../../../src/operator/client';
import { OperatorValidationError } from '../../../src/operator/errors';
import { OperatorTransport, resolveRoute } from '../../../src/operator/http';
import { FakeOperator, testConfig } from '../../helpers/fake-operator';
import { captureLogger } from '../../helpers/logs';

const HOSTILE = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2e',
  '.%2e',
  'a/b',
  '../../auth',
  'a\\..\\b',
  '?x=1',
  '#frag',
  'a/../../b',
];

/** The path as the transport would fetch it: the base URL's path, then the template with the value in its place. */
async function fetchedPath(operation: RouteName, id: string): Promise<string | OperatorValidationError> {
  const urls: string[] = [];
  const transport = new OperatorTransport({
    baseUrl: 'https://operator.example/api',
    profile: DEFAULT_OPERATOR_PROFILE,
    timeoutMs: 1000,
    logger: pino({ level: 'silent' }),
    fetch: (input) => {
      urls.push(input);
      return Promise.resolve(new Response('{}', { status: 200 }));
    },
  });
  try {
    await transport.send({ operation, params: { id } });
  } catch (error) {
    if (error instanceof OperatorValidationError) return error;
    throw error;
  }
  expect(urls).toHaveLength(1);
  return new URL(urls[0]!).pathname;
}

describe('operator route parameters', () => {
  test.each(HOSTILE)('%s cannot change the path of any route with an {id}', async (id) => {
    for (const operation of ROUTES_WITH_ID) {
      const [prefix, suffix] = DEFAULT_ROUTES[operation].replace(/^[A-Z]+ /, '').split('{id}') as [
        string,
        string,
      ];
      const outcome = await fetchedPath(operation, id);
      if (outcome instanceof OperatorValidationError) {
        // Refused before any request: only . and .. (a URL parser resolves them however they are spelled).
        expect(['.', '..']).toContain(id);
        continue;
      }
      // Still the route's own path: its prefix, exactly one segment, its suffix.
      expect(outcome.startsWith(`/api${prefix}`)).toBe(true);
      expect(outcome.endsWith(suffix)).toBe(true);
      const segment = outcome.slice(`/api${prefix}`.length, outcome.length - suffix.length);
      expect(segment).not.toContain('/');
      expect(decodeURIComponent(segment)).toBe(id);
    }
  });

  test('resolveRoute encodes the value as one segment', () => {
    expect(resolveRoute('GET /wallets/private/v1/transactions/{id}', { id: 'a/b' }).path).toBe(
      '/wallets/private/v1/transactions/a%2Fb',
    );
    expect(resolveRoute('GET /wallets/private/v1/transactions/{id}', { id: '%2e%2e' }).path).toBe(
      '/wallets/private/v1/transactions/%252e%252e',
    );
    expect(() => resolveRoute('GET /wallets/private/v1/transactions/{id}', { id: '..' })).toThrow(
      /must not be \. or \.\./,
    );
    expect(() => resolveRoute('GET /core-conversions/private/v1/orders/{id}', { id: '.' })).toThrow(
      /must not be \. or \.\./,
    );
  });

  test('the client refuses . and .. before logging in: the operator sees no call at all', async () => {
    const fake = new FakeOperator();
    const client = new OperatorClient({
      config: testConfig(),
      logger: captureLogger().logger,
      fetch: fake.fetch,
    });
    for (const id of ['..', '.', '\ud800']) {
      await expect(client.getTransaction(id)).rejects.toMatchObject({
        name: 'OperatorValidationError',
        retryable: false,
        operation: 'getTransaction',
      });
      await expect(client.getOrder(id)).rejects.toBeInstanceOf(OperatorValidationError);
      await expect(client.getWalletAddressesPage(id, 1)).rejects.toBeInstanceOf(OperatorValidationError);
    }
    expect(fake.calls).toEqual([]);
  });

  test('through the client, a slash or an encoded dot pair stays data of the transaction route', async () => {
    const fake = new FakeOperator();
    fake.handle('GET', /^\/wallets\/private\/v1\/transactions\/[^/]+$/, (call) => ({
      status: 200,
      body: {
        data: {
          id: decodeURIComponent(call.path.split('/').pop()!),
          status: 'confirmed',
          type: 'Deposit',
          subtype: 'external',
          walletId: 'w1',
          amount: '12.5',
        },
      },
    }));
    const client = new OperatorClient({
      config: testConfig(),
      logger: captureLogger().logger,
      fetch: fake.fetch,
    });
    expect((await client.getTransaction('a/b')).id).toBe('a/b');
    expect((await client.getTransaction('%2e%2e')).id).toBe('%2e%2e');
    expect(fake.apiCalls.map((call) => call.path)).toEqual([
      '/wallets/private/v1/transactions/a%2Fb',
      '/wallets/private/v1/transactions/%252e%252e',
    ]);
  });
});
