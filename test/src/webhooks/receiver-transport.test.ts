/**
 * Where the receiver's TLS ends (RECEIVER_TLS): plain HTTP only when told TLS ends in front of it, the generated
 * certificate on loopback only, and its own certificate files taken up again when a renewal replaces them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { Client } from '@temporalio/client';
import { loadReceiverConfig } from '../../../src/config/receiver';
import { createLogger } from '../../../src/logging';
import { generateLocalCertificate } from '../../../src/tls/local-certificate';
import { startReceiver } from '../../../src/webhooks/receiver';
import { timings } from '../../helpers/ramp-fixtures';
import { testReceiverConfig } from '../../helpers/receiver';
import { httpGet } from '../../helpers/processes';

const logger = createLogger({ name: 'receiver-transport-test', level: 'silent' });
/** /healthz needs nothing of Temporal: the receiver only holds the client until a delivery comes. */
const temporal = {} as Client;
const deps = { temporal, taskQueue: 'receiver-transport', timings, logger };

/** The fingerprint of the certificate a TLS handshake with port presents. */
function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!.fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('RECEIVER_TLS', () => {
  const base = {
    OPERATOR_BASE_URL: 'https://operator.example',
    RECEIVER_TRANSACTION_SECRET: 't'.repeat(32),
    RECEIVER_ORDER_SECRET: 'o'.repeat(32),
  };

  test('reads a directory, in-front, or nothing; a non-loopback bind without it is refused', () => {
    expect(loadReceiverConfig({ ...base, RECEIVER_TLS: '/run/secrets/receiver-tls' }).tls).toEqual({
      files: '/run/secrets/receiver-tls',
    });
    expect(loadReceiverConfig({ ...base, RECEIVER_HOST: '0.0.0.0', RECEIVER_TLS: 'in-front' }).tls).toEqual({
      inFront: true,
    });
    expect(loadReceiverConfig(base).tls).toEqual({ local: true });
    expect(() => loadReceiverConfig({ ...base, RECEIVER_HOST: '0.0.0.0' })).toThrow(
      /RECEIVER_TLS: required when RECEIVER_HOST \(0\.0\.0\.0\) is not loopback/,
    );
  });

  test('in-front: plain HTTP, and no TLS handshake', async () => {
    const receiver = await startReceiver(testReceiverConfig({ tls: { inFront: true } }), deps);
    try {
      expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await httpGet(`${receiver.url}/healthz`)).toEqual({ status: 200, body: '{"status":"ok"}' });
      await expect(servedFingerprint(receiver.port)).rejects.toThrow();
    } finally {
      await receiver.close();
    }
  });

  test('a renewed certificate is served without a restart; a half-written pair keeps the old one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'receiver-tls-'));
    const [first, second] = await Promise.all([generateLocalCertificate(30), generateLocalCertificate(60)]);
    const write = (pem: { key?: string; cert?: string }) => {
      if (pem.key) writeFileSync(path.join(dir, 'tls.key'), pem.key);
      if (pem.cert) writeFileSync(path.join(dir, 'tls.crt'), pem.cert);
    };
    write(first);
    const receiver = await startReceiver(
      testReceiverConfig({ tls: { files: dir }, tlsReloadIntervalMs: 100 }),
      deps,
    );
    try {
      const fingerprint = (pem: { cert: string }) => new X509Certificate(pem.cert).fingerprint256;
      expect(receiver.url).toMatch(/^https:/);
      expect(await servedFingerprint(receiver.port)).toBe(fingerprint(first));
      // The renewal writes the key first: for a moment it does not match the certificate.
      write({ key: second.key });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await servedFingerprint(receiver.port)).toBe(fingerprint(first));
      write({ cert: second.cert });
      await until(async () => (await servedFingerprint(receiver.port)) === fingerprint(second), 5_000);
      expect((await httpGet(`${receiver.url}/healthz`)).status).toBe(200);
    } finally {
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
