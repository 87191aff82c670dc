import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerSecret } from '../../../src/secrets/known-secrets';
import {
  deadlinePassed,
  errorFromFetchFailure,
  errorFromResponse,
  isRetryable,
  notCarriedOut,
  OperatorError,
  OperatorResponseError,
  OperatorValidationError,
} from '../../../src/operator/errors';
import { OperatorTransport } from '../../../src/operator/http';
import { DEFAULT_OPERATOR_PROFILE, type Routes } from '../../../src/domain/operator-profile';
import { captureLogger } from '../../helpers/logs';

describe('error classification', () => {
  const table: [status: number, code: string, retryable: boolean][] = [
    [400, 'bad_request', false],
    [401, 'unauthenticated', false],
    [403, 'forbidden', false],
    [404, 'not_found', false],
    [409, 'conflict', false],
    [422, 'unprocessable', false],
    [418, 'http_error', false],
    [408, 'timeout', true],
    [429, 'rate_limited', true],
    [500, 'server_error', true],
    [502, 'server_error', true],
    [503, 'server_error', true],
    [504, 'server_error', true],
  ];

  it.each(table)('HTTP %i → %s, retryable=%s', (status, code, retryable) => {
    const error = errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'createWallet', status, {
      error: { code: 'x', message: 'y' },
    });
    expect(error).toBeInstanceOf(OperatorError);
    expect(error).toMatchObject({ status, code, retryable, operation: 'createWallet', operatorCode: 'x' });
    expect(isRetryable(error)).toBe(retryable);
  });

  it('parses the error body tolerantly', () => {
    expect(errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'getOrder', 404, undefined).message).toBe(
      'operator getOrder failed with HTTP 404',
    );
    expect(errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'getOrder', 404, 'plain text').message).toBe(
      'operator getOrder failed with HTTP 404',
    );
    expect(
      errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'getOrder', 404, { error: 'nope' }).operatorCode,
    ).toBeUndefined();
    const withExtras = errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'getOrder', 404, {
      error: { code: 'not_found', message: 'no such order', extra: 1 },
    });
    expect(withExtras.message).toBe('operator getOrder failed with HTTP 404: not_found - no such order');
    expect(withExtras.operatorCode).toBe('not_found');
  });

  it('redacts known secret values from operator messages', () => {
    const secret = 'leaky-token-0123456789';
    registerSecret(secret);
    const error = errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'createQuote', 401, {
      error: { code: 'bad_token', message: `token ${secret} expired` },
    });
    expect(error.message).not.toContain(secret);
    expect(error.message).toContain('[REDACTED]');
    expect(JSON.stringify(error)).not.toContain(secret);
  });

  it('classifies timeouts and network failures as retryable', () => {
    const timeout = errorFromFetchFailure(
      'getOrder',
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      50,
    );
    expect(timeout).toMatchObject({ code: 'timeout', retryable: true, operation: 'getOrder' });
    expect(timeout.status).toBeUndefined();
    const refused = errorFromFetchFailure(
      'getOrder',
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }),
      50,
    );
    expect(refused).toMatchObject({ code: 'network_error', retryable: true });
    expect(refused.message).toContain('ECONNREFUSED');
  });

  it('response-shape and local validation errors are not retryable', () => {
    expect(isRetryable(new OperatorResponseError('getOrder', 200, ['data.status: Invalid option']))).toBe(
      false,
    );
    expect(isRetryable(new OperatorValidationError('createQuote', ['amountFrom: must be a decimal']))).toBe(
      false,
    );
  });
});

describe('which errors show that a call was not carried out', () => {
  it('a call never sent, refused here, or refused its session was not; a timeout, a 5xx or a 4xx may have been', () => {
    expect(notCarriedOut(deadlinePassed('createWallet'), 'createWallet')).toBe(
      'createWallet: deadline_passed',
    );
    expect(
      notCarriedOut(new OperatorValidationError('createWallet', ['networks: required']), 'createWallet'),
    ).toBe('createWallet: invalid_request');
    expect(
      notCarriedOut(
        errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'createWallet', 401, undefined),
        'createWallet',
      ),
    ).toBe('createWallet: unauthenticated');
    // The login the call waited for (before it was sent, or after its 401) failed.
    expect(
      notCarriedOut(
        errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'authenticate', 503, undefined),
        'createWallet',
      ),
    ).toBe('authenticate: server_error');
    expect(
      notCarriedOut(errorFromFetchFailure('createWallet', { name: 'TimeoutError' }, 5_000), 'createWallet'),
    ).toBeUndefined();
    expect(
      notCarriedOut(
        errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'createWallet', 503, undefined),
        'createWallet',
      ),
    ).toBeUndefined();
    expect(
      notCarriedOut(
        errorFromResponse(DEFAULT_OPERATOR_PROFILE, 'createWallet', 409, undefined),
        'createWallet',
      ),
    ).toBeUndefined();
    expect(
      notCarriedOut(new OperatorResponseError('createWallet', 201, ['data: required']), 'createWallet'),
    ).toBeUndefined();
    // Another call's error says nothing about this one; nor does an error that is not the operator's.
    expect(notCarriedOut(deadlinePassed('getOrder'), 'createWallet')).toBeUndefined();
    expect(notCarriedOut(new Error('boom'), 'createWallet')).toBeUndefined();
  });
});

describe('transport against a real local server', () => {
  let server: Server;
  let baseUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(request.url ?? '');
      if (request.url?.startsWith('/hang')) return; // never answers: the client's timeout must fire
      if (request.url?.startsWith('/moved')) {
        response.writeHead(307, { location: '/elsewhere' }).end();
        return;
      }
      if (request.url?.startsWith('/html')) {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const transport = (routes: Partial<Routes>, url = baseUrl, timeoutMs = 200) =>
    new OperatorTransport({
      baseUrl: url,
      profile: { ...DEFAULT_OPERATOR_PROFILE, routes: { ...DEFAULT_OPERATOR_PROFILE.routes, ...routes } },
      timeoutMs,
      logger: captureLogger().logger,
    });

  it("a caller's deadline cuts the timeout: the request is abandoned when the deadline passes", async () => {
    const failure = await transport({ getOrder: 'GET /hang/{id}' }, baseUrl, 60_000)
      .send({ operation: 'getOrder', params: { id: 'cut' }, deadlineMs: Date.now() + 100 })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'timeout', retryable: true });
    const [, cutToMs] = /timed out after (\d+) ms/.exec((failure as Error).message) ?? [];
    expect(Number(cutToMs)).toBeGreaterThan(0);
    expect(Number(cutToMs)).toBeLessThanOrEqual(100);
  });

  it('a request whose deadline has passed is not sent', async () => {
    await expect(
      transport({ getOrder: 'GET /hang/{id}' }).send({
        operation: 'getOrder',
        params: { id: 'late' },
        deadlineMs: Date.now() - 1,
      }),
    ).rejects.toMatchObject({ code: 'deadline_passed', retryable: true });
    // A request sent after it has been answered; the refused one never arrived.
    await transport({ getOrder: 'GET /html/{id}' })
      .send({ operation: 'getOrder', params: { id: 'after-late' } })
      .catch(() => undefined);
    expect(received).toContain('/html/after-late');
    expect(received).not.toContain('/hang/late');
  });

  it('a redirect is not followed: a retryable network error, and nothing reaches where it points', async () => {
    await expect(
      transport({ createWallet: 'POST /moved' }).send({
        operation: 'createWallet',
        body: { externalUserId: 'user-1' },
        headers: { 'x-csrf-token': 'csrf-redirect-test' },
      }),
    ).rejects.toMatchObject({ code: 'network_error', retryable: true });
    expect(received).toContain('/moved');
    expect(received).not.toContain('/elsewhere');
  });

  it('times out with a retryable error', async () => {
    await expect(
      transport({ getOrder: 'GET /hang/{id}' }).send({ operation: 'getOrder', params: { id: '1' } }),
    ).rejects.toMatchObject({
      code: 'timeout',
      retryable: true,
    });
  });

  it('a 5xx with an HTML body is a retryable server error', async () => {
    await expect(
      transport({ getOrder: 'GET /html/{id}' }).send({ operation: 'getOrder', params: { id: '1' } }),
    ).rejects.toMatchObject({
      status: 502,
      code: 'server_error',
      retryable: true,
    });
  });

  it('a 2xx that is not JSON is a non-retryable response error', async () => {
    await expect(transport({}).send({ operation: 'getOrder', params: { id: '1' } })).rejects.toBeInstanceOf(
      OperatorResponseError,
    );
  });

  it('connection refused is a retryable network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      transport({}, `http://127.0.0.1:${port}`).send({ operation: 'getOrder', params: { id: '1' } }),
    ).rejects.toMatchObject({
      code: 'network_error',
      retryable: true,
    });
  });
});
