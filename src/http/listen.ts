import type http from 'node:http';
import type https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  /** The port actually bound (a requested 0 becomes a free port). */
  port: number;
  /** `scheme://host:port` as bound, with an IPv6 host in brackets and 0.0.0.0 shown as 127.0.0.1. */
  url: string;
  /**
   * Stops accepting, lets requests in flight finish (idle keep-alive connections close at once), and cuts what is
   * still open after the drain bound; safe to call more than once.
   */
  close: () => Promise<void>;
}

/** How long close() waits for requests in flight before cutting their connections. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/** Listens on host:port and resolves once bound (or rejects with the bind error, e.g. port in use). */
export async function listen(
  server: http.Server | https.Server,
  port: number,
  host: string,
  scheme: 'http' | 'https',
  options: { drainTimeoutMs?: number } = {},
): Promise<ListeningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    port: bound,
    url: `${scheme}://${shownHost}:${bound}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        // A request that arrives on a kept-alive connection while draining is still answered, then told to close.
        const cut = setTimeout(
          () => server.closeAllConnections(),
          options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
        );
        server.close((error) => {
          clearTimeout(cut);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
