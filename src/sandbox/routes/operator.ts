/**
 * Mounts every route of the profile (src/domain/operator-profile.ts): each is named (for the call log), passes the API faults, then the
 * bearer + CSRF check (all but the two login steps), then its handler.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { RouteName } from '../../domain/operator-profile';
import type { SandboxContext } from '../context';
import { SandboxError } from '../errors';
import { requireAuth } from '../http/auth';
import { authHandlers } from './auth';
import { detailHandlers } from './details';
import { quoteHandlers } from './quotes';
import { recipientHandlers } from './recipients';
import type { OperatorHandlers } from './types';
import { walletHandlers } from './wallets';

const PUBLIC_ROUTES: ReadonlySet<RouteName> = new Set(['startSession', 'authenticate']);

export function operatorHandlers(ctx: SandboxContext): OperatorHandlers {
  const transactionRecipients = recipientHandlers(ctx, 'transaction');
  const orderRecipients = recipientHandlers(ctx, 'order');
  return {
    ...authHandlers(ctx),
    ...walletHandlers(ctx),
    ...quoteHandlers(ctx),
    ...detailHandlers(ctx),
    listTransactionRecipients: transactionRecipients.list,
    getTransactionRecipient: transactionRecipients.get,
    createTransactionRecipients: transactionRecipients.create,
    deleteTransactionRecipient: transactionRecipients.remove,
    listOrderRecipients: orderRecipients.list,
    getOrderRecipient: orderRecipients.get,
    createOrderRecipients: orderRecipients.create,
    deleteOrderRecipient: orderRecipients.remove,
  };
}

/** "GET /wallets/private/v1/wallets/{id}/addresses" -> ["get", "/wallets/private/v1/wallets/:id/addresses"] */
export function expressRoute(template: string): {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  path: string;
} {
  const [method = '', path = ''] = template.trim().split(/\s+/, 2);
  const lower = method.toLowerCase();
  if (!['get', 'post', 'put', 'delete', 'patch'].includes(lower) || !path.startsWith('/')) {
    throw new Error(`route template "${template}" is not "METHOD /path"`);
  }
  return {
    method: lower as 'get' | 'post' | 'put' | 'delete' | 'patch',
    path: path.replace(/\{(\w+)\}/g, ':$1'),
  };
}

function injectFaults(ctx: SandboxContext, route: RouteName) {
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const decision = ctx.faults.apiDecision(route);
    if (decision.slowMs > 0)
      await new Promise<void>((resolve) => ctx.scheduler.afterReal(decision.slowMs, resolve));
    if (decision.failStatus !== null) {
      res.locals.injectedFault = true;
      throw new SandboxError(
        decision.failStatus,
        'injected_fault',
        'The sandbox injected this failure (fault injection)',
      );
    }
    next();
  };
}

export function operatorRouter(ctx: SandboxContext): Router {
  const router = Router();
  const handlers = operatorHandlers(ctx);
  const auth = requireAuth(ctx);
  for (const [name, template] of Object.entries(ctx.config.profile.routes) as Array<[RouteName, string]>) {
    const { method, path } = expressRoute(template);
    const nameRoute = (_req: Request, res: Response, next: NextFunction): void => {
      res.locals.routeName = name;
      next();
    };
    const chain = [nameRoute, injectFaults(ctx, name), ...(PUBLIC_ROUTES.has(name) ? [] : [auth])];
    const handler = handlers[name];
    router[method](path, ...chain, async (req: Request, res: Response) => {
      await handler(req, res);
    });
  }
  return router;
}
