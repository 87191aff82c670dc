/**
 * The HTTP API as a client's backend reads it, for the legs that measure reads of the ledger: the product's API
 * server in this process over a bench database (its typed client on the npm-start server, which these reads never
 * call), and GETs one at a time on a kept-alive connection, each answer consumed as it arrives.
 */
import http from 'node:http';
import pino from 'pino';
import { startApiServer } from '../../src/api/server';
import { RampClient } from '../../src/client/ramp-client';
import { loadApiConfig } from '../../src/config/api';
import { BENCH_NAMESPACE, BENCH_TASK_QUEUE, type BenchContext, type BenchDatabase } from './context';

const API_KEY = 'bench-reads-api-key-8f3a61';

export interface BenchApi {
  url: string;
  /** GET of a path: the status, the body's bytes, and the time to the last byte; `onChunk` sees each chunk. */
  get(
    path: string,
    onChunk?: (chunk: Buffer) => void,
  ): Promise<{ status: number; bytes: number; ms: number }>;
  /** GET of a path answered in JSON: the status, the parsed body, and the time to the last byte. */
  getJson<T>(path: string): Promise<{ status: number; body: T; ms: number }>;
  close(): Promise<void>;
}

export async function startBenchApi(context: BenchContext, database: BenchDatabase): Promise<BenchApi> {
  const ramp = new RampClient({
    connection: context.subject.temporal.connection,
    database,
    namespace: BENCH_NAMESPACE,
    taskQueue: BENCH_TASK_QUEUE,
    timings: context.timings,
  });
  const api = await startApiServer({
    config: loadApiConfig({ API_PORT: '0', API_KEY }),
    ramp,
    ledger: database.db,
    logger: pino({ level: 'silent' }),
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, onChunk?: (chunk: Buffer) => void) =>
    new Promise<{ status: number; bytes: number; ms: number }>((resolve, reject) => {
      const startedAt = performance.now();
      const request = http.get(
        `${api.url}${path}`,
        { agent, headers: { authorization: `Bearer ${API_KEY}` } },
        (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            onChunk?.(chunk);
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, bytes, ms: performance.now() - startedAt }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
    });
  return {
    url: api.url,
    get,
    async getJson<T>(path: string) {
      const chunks: Buffer[] = [];
      const answer = await get(path, (chunk) => chunks.push(chunk));
      return {
        status: answer.status,
        ms: answer.ms,
        body: JSON.parse(Buffer.concat(chunks).toString()) as T,
      };
    },
    async close() {
      agent.destroy();
      await api.close();
      await ramp.close();
    },
  };
}

/** Counts a marker in a stream of chunks, a marker split between two chunks included. */
export function markerCounter(marker: string): { add(chunk: Buffer): void; count(): number } {
  let tail = '';
  let count = 0;
  return {
    add(chunk) {
      const text = tail + chunk.toString('latin1');
      for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length))
        count += 1;
      tail = text.slice(Math.max(0, text.length - marker.length + 1));
    },
    count: () => count,
  };
}
