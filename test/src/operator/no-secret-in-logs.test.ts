import { OperatorClient } from '../../../src/operator/client';
import { FakeOperator, PASSCODE, testConfig } from '../../helpers/fake-operator';
import { captureLogger } from '../../helpers/logs';

describe('no secret reaches logs or errors', () => {
  it('across logins, re-logins, calls and failures at debug level', async () => {
    const captured = captureLogger();
    const fake = new FakeOperator();
    fake.handle('GET', /orders/, () => ({
      status: 200,
      body: { data: { id: 'o1', orderReference: 'ref', status: 'executed' } },
    }));
    // An operator that echoes credentials back in its error messages.
    fake.handle('POST', /quotes$/, (call) => ({
      status: 400,
      body: {
        error: {
          code: 'bad',
          message: `rejected ${call.headers.authorization} with csrf ${call.headers['x-csrf-token']}`,
        },
      },
    }));
    fake.handle('GET', /transactions/, () => ({ status: 500, text: 'oops' }));
    const client = new OperatorClient({ config: testConfig(), logger: captured.logger, fetch: fake.fetch });

    const errors: unknown[] = [];
    await client.getOrder('o1');
    fake.revokeAllTokens();
    await client.getOrder('o1');
    await client.refreshSession();
    await client
      .createQuote({ coinFrom: 'MXN', chainTo: 'TRX', coinTo: 'USDT', amountFrom: '1' })
      .catch((error: unknown) => errors.push(error));
    await client.getTransaction('t1').catch((error: unknown) => errors.push(error));
    captured.logger.debug({ session: client, status: client.sessionStatus() }, 'state dump');

    expect(errors).toHaveLength(2);
    expect(fake.issuedTokens).toHaveLength(3);
    expect(captured.lines().length).toBeGreaterThan(5);
    expect(
      captured
        .lines()
        .some((line) => line.includes('"operation":"getOrder"') && line.includes('"status":200')),
    ).toBe(true);

    const everything = [
      captured.text(),
      ...errors.map(
        (error) => `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).stack)}`,
      ),
    ].join('\n');
    for (const secret of [...fake.issuedTokens, ...fake.issuedCsrfTokens, PASSCODE]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).toContain('[REDACTED]'); // the echoed credentials were there, and were scrubbed
  });
});
