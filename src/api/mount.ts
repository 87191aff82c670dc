/**
 * The declared endpoints as express routes: each parses its path parameters, query and body with its schemas (400
 * naming every issue), runs its handler under the API's deadline and answers JSON (`{ data }` unless the answer is
 * bare), or streams what the handler streams. Every POST takes an Idempotency-Key (src/api/idempotency.ts).
 */
import { once } from 'node:events';
import { type RequestHandler, type Response, Router } from 'express';
import type { Logger } from 'pino';
import { type AnyEndpoint, type Answer, concreteFirst, type Input, Reply, Streamed } from './endpoint';
import { parseInput } from './errors';
import type { RampApi, TemporalCall } from './types';

export interface MountOptions {
  ramp: RampApi;
  call: TemporalCall;
  /** The Idempotency-Key handling of a POST, by its operationId. */
  idempotent: (operationId: string) => RequestHandler;
  logger: Logger;
}

/** `/v1/end-users/{id}` as express writes it: `/v1/end-users/:id`. */
const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

const parsed = (part: Input | undefined, value: unknown) =>
  part ? parseInput(part.schema, value ?? part.whenAbsent, part.what) : undefined;

export function mountEndpoints(endpoints: readonly AnyEndpoint[], options: MountOptions): Router {
  const router = Router();
  for (const endpoint of concreteFirst(endpoints)) {
    const before = endpoint.method === 'post' ? [options.idempotent(endpoint.operationId)] : [];
    router[endpoint.method](expressPath(endpoint.path), ...before, async (req, res) => {
      const request = {
        params: parsed(endpoint.params, req.params),
        query: parsed(endpoint.query, req.query),
        body: parsed(endpoint.body, req.body),
      };
      const result = await options.call(() => endpoint.handle(request, options.ramp));
      if (result instanceof Streamed) return stream(res, result, options.logger);
      const reply = result instanceof Reply ? (result as Reply) : new Reply(onlyStatus(endpoint), result);
      const answer = endpoint.answers[reply.status as keyof typeof endpoint.answers] as Answer;
      res.status(reply.status).json(answer.bare ? reply.data : { data: reply.data });
    });
  }
  return router;
}

const onlyStatus = (endpoint: AnyEndpoint) => Number(Object.keys(endpoint.answers)[0]);

/** Writes a streamed answer chunk by chunk, waiting while the caller's connection is full. */
async function stream(res: Response, answer: Streamed, logger: Logger): Promise<void> {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  try {
    for await (const chunk of answer.chunks) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await once(res, 'drain');
    }
    res.end();
  } catch (error) {
    // Half an answer is out: cutting the connection is the only way left to say it failed.
    logger.warn({ err: { name: (error as Error).name } }, 'Streamed answer cut off after it started');
    res.destroy();
  }
}
