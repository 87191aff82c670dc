/**
 * The codec server and the receiver as the image runs them (their entry points, as processes): the codec server on
 * its own with CORS for the Web UI's origin and its health check; the receiver serving plain HTTP when TLS ends in
 * front of it, refusing a non-loopback bind without TLS, and recording a delivery over plain HTTP.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { METADATA_ENCODING_KEY } from '@temporalio/common';
import { freePort } from '../../src/http/free-port';
import { payloadFromJson, payloadToJson } from '../../src/temporal/codec-server';
import { EncryptionCodec } from '../../src/temporal/encryption-codec';
import { parseEncryptionKeys } from '../../src/config/encryption';
import { Proc, waitForHttp200 } from '../helpers/processes';
import { testServer } from '../helpers/temporal';

const ROOT = path.join(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const logs = mkdtempSync(path.join(os.tmpdir(), 'edge-processes-'));
const started: Proc[] = [];

function entry(name: string, env: NodeJS.ProcessEnv): Proc {
  const proc = new Proc(name, TSX, [path.join(ROOT, 'src', 'entry', `${name}.ts`)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: logs, LOG_LEVEL: 'info', ...env },
    logFile: path.join(logs, `${name}-${started.length}.log`),
  });
  started.push(proc);
  return proc;
}

/** The image's HEALTHCHECK command for one process, with that process's settings. */
function healthcheck(process: string, env: NodeJS.ProcessEnv): number | null {
  return spawnSync(TSX, [path.join(ROOT, 'src', 'entry', 'healthcheck.ts'), '--process', process], {
    cwd: ROOT,
    env: { PATH: globalThis.process.env.PATH, ...env },
    timeout: 30_000,
  }).status;
}

afterAll(async () => {
  await Promise.all(started.map((proc) => proc.stop('SIGTERM', 10_000)));
});

describe('the codec server entry point', () => {
  const keys = `k1:${randomBytes(32).toString('base64')}`;
  const uiOrigin = 'https://temporal.internal.example';

  test('serves the Web UI origin it is given, answers its health check, and decodes what the product encrypts', async () => {
    const port = String(await freePort());
    const env = {
      PAYLOAD_ENCRYPTION_KEYS: keys,
      CODEC_SERVER_PORT: port,
      CODEC_SERVER_CORS_ORIGINS: uiOrigin,
    };
    const codec = entry('codec-server', env);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp200(`${base}/healthz`, codec, 60_000);
    expect(healthcheck('codec-server', env)).toBe(0);

    // The Web UI's preflight from its origin, as a browser guarding the private network sends it.
    const preflight = await fetch(`${base}/codec/decode`, {
      method: 'OPTIONS',
      headers: {
        origin: uiOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-namespace',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(uiOrigin);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    const foreign = await fetch(`${base}/codec/decode`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);

    const codecInProcess = new EncryptionCodec(parseEncryptionKeys(keys));
    const [encrypted] = await codecInProcess.encode([
      { metadata: { [METADATA_ENCODING_KEY]: Buffer.from('json/plain') }, data: Buffer.from('"99.50"') },
    ]);
    const decoded = await fetch(`${base}/codec/decode`, {
      method: 'POST',
      headers: { origin: uiOrigin, 'content-type': 'application/json', 'x-namespace': 'ramp-orchestrator' },
      body: JSON.stringify({ payloads: [payloadToJson(encrypted!)] }),
    });
    expect(decoded.status).toBe(200);
    const body = (await decoded.json()) as { payloads: Parameters<typeof payloadFromJson>[0][] };
    expect(Buffer.from(payloadFromJson(body.payloads[0]!).data!).toString()).toBe('"99.50"');
    expect(codec.output).not.toContain(keys.split(':')[1]!);
  });

  test('bound beyond loopback without a token, it refuses to start', async () => {
    const codec = entry('codec-server', {
      PAYLOAD_ENCRYPTION_KEYS: keys,
      CODEC_SERVER_HOST: '0.0.0.0',
      CODEC_SERVER_PORT: String(await freePort()),
    });
    expect((await codec.ended).code).toBe(1);
    expect(codec.output).toContain(
      'CODEC_SERVER_TOKEN is required when the codec server is not bound to loopback',
    );
  });
});

describe('the receiver entry point behind TLS that ends in front of it', () => {
  const secrets = { transaction: `tx-${randomUUID()}`, order: `order-${randomUUID()}` };
  const settings = () => {
    const { address, namespace } = testServer();
    return {
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: `edge-${randomUUID()}`,
      OPERATOR_BASE_URL: 'http://127.0.0.1:9',
      OPERATOR_EMAIL: 'ops@example.com',
      OPERATOR_PASSCODE: 'not-used-here',
      RECEIVER_PUBLIC_URL: 'https://hooks.example',
      RECEIVER_TRANSACTION_SECRET: secrets.transaction,
      RECEIVER_ORDER_SECRET: secrets.order,
      METRICS_TOKEN: 'metrics-token-0123456789',
    };
  };

  test('serves plain HTTP with RECEIVER_TLS=in-front and records a delivery', async () => {
    const port = String(await freePort());
    const env = { ...settings(), RECEIVER_PORT: port, RECEIVER_TLS: 'in-front' };
    const receiver = entry('receiver', env);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp200(`${base}/healthz`, receiver, 60_000);
    expect(healthcheck('receiver', env)).toBe(0);
    // An event kind the spec does not list goes straight to Temporal (no operator read): 200 once recorded.
    const delivery = await fetch(`${base}/webhooks/transactions/${secrets.transaction}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { eventType: 'transaction-renamed', payload: { id: 'tx-edge-1' } } }),
    });
    expect(delivery.status).toBe(200);
    expect(((await delivery.json()) as { received: boolean }).received).toBe(true);
    expect(receiver.output).not.toContain(secrets.transaction);
  });

  test('bound beyond loopback with neither certificate files nor in-front, it refuses to start', async () => {
    const receiver = entry('receiver', {
      ...settings(),
      RECEIVER_HOST: '0.0.0.0',
      RECEIVER_PORT: String(await freePort()),
    });
    expect((await receiver.ended).code).toBe(1);
    expect(receiver.output).toContain('RECEIVER_TLS: required when RECEIVER_HOST (0.0.0.0) is not loopback');
  });
});
