/**
 * How the receiver meets the operator (RECEIVER_TLS): HTTPS with its own certificate files, taken up again when they
 * change so that a renewed certificate needs no restart; HTTPS with the generated localhost certificate (loopback
 * only); or plain HTTP when TLS ends in front of it (an ingress, a load balancer).
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import type https from 'node:https';
import path from 'node:path';
import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { type ReceiverConfig, TLS_FILES, TLS_RELOAD_INTERVAL_MS } from '../config/receiver';
import { createHttpServer, createHttpsServer, type HttpServerTimeouts } from '../http/server';
import { getLocalCertificate } from '../tls/local-certificate';

export interface ReceiverTransport {
  server: http.Server | https.Server;
  scheme: 'http' | 'https';
  /** Stops looking at the certificate files. */
  stop(): void;
}

interface Pem {
  key: string;
  cert: string;
}

async function readPem(dir: string): Promise<Pem> {
  const [cert, key] = await Promise.all([
    readFile(path.join(dir, TLS_FILES.cert), 'utf8'),
    readFile(path.join(dir, TLS_FILES.key), 'utf8'),
  ]);
  return { key, cert };
}

/** What a log line may say of a certificate: when it ends and its fingerprint, never the key. */
function describe(cert: string): { validTo: string; fingerprint256: string } {
  const x509 = new X509Certificate(cert);
  return { validTo: x509.validTo, fingerprint256: x509.fingerprint256 };
}

export async function receiverTransport(
  config: Pick<ReceiverConfig, 'tls' | 'tlsReloadIntervalMs'>,
  app: RequestListener,
  options: { logger: Logger; timeouts?: HttpServerTimeouts; pem?: Pem },
): Promise<ReceiverTransport> {
  const { tls } = config;
  if ('inFront' in tls) return { server: createHttpServer(app, options.timeouts), scheme: 'http', stop() {} };
  if (options.pem || 'local' in tls) {
    const pem = options.pem ?? (await getLocalCertificate());
    return { server: createHttpsServer(pem, app, options.timeouts), scheme: 'https', stop() {} };
  }
  const dir = tls.files;
  let current = await readPem(dir);
  const server = createHttpsServer(current, app, options.timeouts);
  options.logger.info({ certificate: describe(current.cert) }, 'Receiver certificate loaded');
  // A renewal writes both files, not at once: a key that does not match its certificate yet is tried again later.
  let refused: Pem | undefined;
  const look = async () => {
    let next: Pem;
    try {
      next = await readPem(dir);
    } catch (error) {
      options.logger.warn(
        { err: { code: (error as NodeJS.ErrnoException).code } },
        'Receiver certificate files unreadable: serving the certificate already loaded',
      );
      return;
    }
    if (next.cert === current.cert && next.key === current.key) return;
    try {
      server.setSecureContext(next);
      current = next;
      refused = undefined;
      options.logger.info({ certificate: describe(next.cert) }, 'Receiver certificate reloaded');
    } catch (error) {
      if (refused?.cert === next.cert && refused.key === next.key) return;
      refused = next;
      options.logger.warn(
        { err: { name: (error as Error).name, code: (error as NodeJS.ErrnoException).code } },
        'Receiver certificate files changed but do not make a usable pair: serving the certificate already loaded',
      );
    }
  };
  const timer = setInterval(() => void look(), config.tlsReloadIntervalMs ?? TLS_RELOAD_INTERVAL_MS);
  timer.unref();
  return { server, scheme: 'https', stop: () => clearInterval(timer) };
}
