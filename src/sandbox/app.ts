/**
 * The express app of the sandbox: the operator's routes (logged in the call log, never with tokens), the
 * /sandbox/v1 simulation endpoints, JSON errors `{ error: { code, message } }` for everything else.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { clientErrorOf } from '../http/errors';
import type { RouteName } from '../domain/operator-profile';
import type { SandboxCore } from './core';
import { SandboxError } from './errors';
import { sendError } from './http/respond';
import { operatorRouter } from './routes/operator';
import { simulationRouter } from './routes/simulation';
import type { CallRecord } from './state';

function isBodyParserError(error: unknown): error is { type: string; status?: number } {
  return (
    typeof error === 'object' && error !== null && typeof (error as { type?: unknown }).type === 'string'
  );
}

export function createSandboxApp(core: SandboxCore): express.Express {
  const { ctx } = core;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: '256kb' }));

  // Call log of the operator's routes (the simulation endpoints are not operator calls).
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/sandbox' || req.path.startsWith('/sandbox/')) return next();
    const started = Date.now();
    res.on('finish', () => {
      const locals = res.locals as {
        routeName?: RouteName;
        errorCode?: string;
        externalUserId?: string;
        injectedFault?: boolean;
      };
      const record: CallRecord = {
        time: ctx.clock.iso(),
        method: req.method,
        route: locals.routeName ?? null,
        path: req.path,
        status: res.statusCode,
        durationMs: Date.now() - started,
      };
      if (locals.errorCode !== undefined) record.errorCode = locals.errorCode;
      if (locals.externalUserId !== undefined) record.externalUserId = locals.externalUserId;
      if (locals.injectedFault === true) record.injectedFault = true;
      ctx.state.calls.push(record);
    });
    next();
  });

  app.use('/sandbox/v1', simulationRouter(core));
  app.use(operatorRouter(ctx));

  // A path it does not serve is a plain 404 whatever the profile's status for an unknown resource, as a gateway says.
  app.use((req: Request) => {
    throw new SandboxError(404, 'route_not_found', `No route ${req.method} ${req.path}`);
  });

  const { profile } = ctx.config;
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof SandboxError) return sendError(res, error, profile);
    if (isBodyParserError(error)) {
      const status = error.status ?? 400;
      const code = error.type === 'entity.parse.failed' ? 'invalid_json' : error.type.replace(/\./g, '_');
      return sendError(
        res,
        new SandboxError(
          status,
          code,
          error.type === 'entity.parse.failed'
            ? 'The request body is not valid JSON'
            : 'The request body was refused',
        ),
        profile,
      );
    }
    // Any other client mistake Node, express or body-parser raised (malformed percent-encoding, corrupt gzip).
    const client = clientErrorOf(error);
    if (client) return sendError(res, new SandboxError(client.status, client.code, client.message), profile);
    ctx.logger.error({ err: error }, 'sandbox route failed');
    return sendError(
      res,
      new SandboxError(500, 'internal_error', 'The sandbox failed to process the request'),
      profile,
    );
  });
  return app;
}
