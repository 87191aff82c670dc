/**
 * The Python example of docs/integration.md, read from the document and run with `requests` and `standardwebhooks`
 * from PyPI (scripts/python-examples.sh): it receives the outcome events, starts an on-ramp over the HTTP API and
 * waits for that on-ramp's event, verified. The worker's CLIENT_WEBHOOK_URLS points at it; the real stack behind.
 */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { eventsOf } from '../../helpers/database';
import { startApiServer } from '../../../src/api/server';
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { newWebhookSecret } from '../../../src/demo/outcome-receiver';
import { freePort } from '../../../src/http/free-port';
import { SecretString } from '../../../src/secrets/secret-string';
import { docExample } from '../../helpers/doc-examples';
import { useRampStacks } from '../../helpers/ramp-stack';

const ROOT = path.join(__dirname, '..', '..', '..');
const API_KEY = 'python-example-api-key-51c2d9';

describe('the Python example of the integration guide', () => {
  const stacks = useRampStacks();
  const folder = mkdtempSync(path.join(tmpdir(), 'ramp-python-example-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test('starts an on-ramp with requests and verifies its on_ramp.created with standardwebhooks', async () => {
    const python = (
      await promisify(execFile)('bash', [path.join(ROOT, 'scripts', 'python-examples.sh')], { cwd: ROOT })
    ).stdout.trim();
    const port = await freePort('127.0.0.1');
    const secret = newWebhookSecret();
    const stack = await stacks.start({
      clientWebhooks: loadClientWebhookConfig({
        CLIENT_WEBHOOK_URLS: `http://127.0.0.1:${port}/ramp-events`,
        CLIENT_WEBHOOK_SECRET: secret,
      }),
    });
    const api = await startApiServer({
      config: {
        port: 0,
        host: '127.0.0.1',
        apiKey: new SecretString(API_KEY),
        idempotencyRetentionMs: 86_400_000,
      },
      ramp: stack.ramp,
      ledger: stack.database.db,
      logger: pino({ level: 'silent' }),
    });
    try {
      const script = path.join(folder, 'example.py');
      writeFileSync(script, docExample('python'));
      const child = spawn(python, [script], {
        env: {
          PATH: process.env.PATH ?? '',
          RAMP_API_URL: api.url,
          RAMP_API_KEY: API_KEY,
          CLIENT_WEBHOOK_SECRET: secret,
          PORT: String(port),
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const [started, verified] = stdout.trim().split('\n');
      const reference = /^on-ramp (order-[0-9a-f-]{36}) awaiting-order$/.exec(started ?? '')?.[1];
      expect(reference).toBeDefined();
      expect(verified).toBe('verified on_ramp.created awaiting-order');
      const [created] = await eventsOf(stack.database.db, `onramp/${reference!}`);
      expect(created).toMatchObject({ webhookId: `evt_onramp~${reference!}~1`, delivery: 'delivered' });
      await stacks.client.workflow.getHandle(`onramp/${reference!}`).terminate('test over');
    } finally {
      await api.close();
    }
  }, 180_000);
});
