/**
 * The Python example of docs/integration.md, read from the document and run with `requests` and `standardwebhooks`
 * from PyPI (scripts/python-examples.sh): it receives the outcome events, starts an on-ramp over the HTTP API and
 * waits for that on-ramp's event, verified; then it drills an outage (its receiver answers 500 while a second on-ramp
 * starts, sees the event listed as waiting, answers again and redelivers since the outage began). The worker's
 * CLIENT_WEBHOOK_URLS points at it, with retries an hour apart: only the procedure brings the event within the test.
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
import type { OutcomeDeliveryTimings } from '../../../src/domain/timings';
import { freePort } from '../../../src/http/free-port';
import { SecretString } from '../../../src/secrets/secret-string';
import { docExample } from '../../helpers/doc-examples';
import { useRampStacks } from '../../helpers/ramp-stack';

const ROOT = path.join(__dirname, '..', '..', '..');
const API_KEY = 'python-example-api-key-51c2d9';
/** Retries far apart: an event refused once arrives within the test only by the drill's redelivery. */
const HOUR_APART: OutcomeDeliveryTimings = {
  attemptTimeoutMs: 3_000,
  retryInitialMs: 60 * 60_000,
  retryMaximumMs: 60 * 60_000,
  retryForMs: 24 * 60 * 60_000,
};

describe('the Python example of the integration guide', () => {
  const stacks = useRampStacks();
  const folder = mkdtempSync(path.join(tmpdir(), 'ramp-python-example-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test('starts an on-ramp with requests, verifies its on_ramp.created with standardwebhooks, and drills an outage', async () => {
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
      timings: { outcomeDelivery: HOUR_APART },
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
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(7);
      const onRamp = /^on-ramp (order-[0-9a-f-]{36}) awaiting-order$/;
      const references = [lines[0], lines[2]].map((line) => onRamp.exec(line ?? '')?.[1]);
      expect(references.every((reference) => reference !== undefined)).toBe(true);
      const [first, drilled] = references as [string, string];
      expect(lines[1]).toBe('verified on_ramp.created awaiting-order');
      // During the outage: refused once, listed first in its queue.
      expect(lines[3]).toBe('waiting on_ramp.created attempts 1 waitingFor 0');
      // After it: the redelivery since the outage began brought it (the next retry was an hour away), once.
      expect(lines[4]).toBe('redelivery matched 1');
      expect(lines[5]).toBe('verified on_ramp.created awaiting-order');
      expect(lines[6]).toBe('redelivery completed, delivered 1 failed 0');
      for (const reference of [first, drilled]) {
        const [created] = await eventsOf(stack.database.db, `onramp/${reference}`);
        expect(created).toMatchObject({ webhookId: `evt_onramp~${reference}~1`, delivery: 'delivered' });
      }
      const attempts = await stack.database.db
        .selectFrom('delivery_attempts')
        .select(['attempt', 'outcome'])
        .where('webhook_id', '=', `evt_onramp~${drilled}~1`)
        .orderBy('attempt')
        .execute();
      expect(attempts).toEqual([
        { attempt: 1, outcome: 'refused' },
        { attempt: 2, outcome: 'confirmed' },
      ]);
      for (const reference of [first, drilled])
        await stacks.client.workflow.getHandle(`onramp/${reference}`).terminate('test over');
    } finally {
      await api.close();
    }
  }, 180_000);
});
