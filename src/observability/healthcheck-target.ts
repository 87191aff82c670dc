/**
 * Where a process's GET /healthz is, from the settings that process binds with: the image's health check asks the
 * process of its container there, so the check follows the port instead of repeating it.
 */
import { loadApiConfig } from '../config/api';
import { loadEncryptionConfig } from '../config/encryption';
import type { Env } from '../config/env';
import { loadReceiverConfig } from '../config/receiver';
import { loadWorkerConfig } from '../config/worker';

export const HEALTHCHECKED_PROCESSES = ['worker', 'receiver', 'api', 'codec-server'] as const;
export type HealthcheckedProcess = (typeof HEALTHCHECKED_PROCESSES)[number];

/** A bound host as this machine reaches it: a wildcard bind answers on loopback. */
const reachable = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

export function healthcheckUrl(process: HealthcheckedProcess, env: Env): URL {
  switch (process) {
    case 'worker': {
      const port = loadWorkerConfig(env).healthPort;
      if (port === undefined) throw new Error('WORKER_HEALTH_PORT is not set: the worker serves no /healthz');
      // The worker's health server listens on every interface.
      return new URL(`http://127.0.0.1:${port}/healthz`);
    }
    case 'receiver': {
      const { host, port, tls } = loadReceiverConfig(env);
      return new URL(`${'inFront' in tls ? 'http' : 'https'}://${reachable(host)}:${port}/healthz`);
    }
    case 'api': {
      const { host, port } = loadApiConfig(env);
      return new URL(`http://${reachable(host)}:${port}/healthz`);
    }
    case 'codec-server': {
      const { host, port } = loadEncryptionConfig(env).codecServer;
      return new URL(`http://${reachable(host)}:${port}/healthz`);
    }
  }
}
