/**
 * The sandbox's own endpoints under /sandbox/v1 (no authentication): the out-of-band account step, the
 * simulated deposits that start the flows, balances, logs, faults, clock and reset.
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { CHAINS, NETWORKS, TOKENS } from '../../domain/vocabulary';
import { decimalString, positiveDecimalString } from '../../operator/schemas';
import { parseDurationMs } from '../../config/duration';
import type { SandboxCore } from '../core';
import type { WalletRecord } from '../state';
import { decimalPlaces, formatAmount, parseAmount } from '../../domain/decimal';
import { badRequest, notFound, parseOr400 } from '../errors';
import { faultsRequestSchema } from '../../config/sandbox-faults';
import { offRampDepositRequest } from '../flows/offramp';
import { onRampDepositRequest, startOnRamp } from '../flows/onramp';
import { isChainCode } from '../flows/records';
import { param, sendData } from '../http/respond';
import { walletView } from './wallets';

export const SIMULATION_ENDPOINTS = [
  ['GET', '/sandbox/v1', 'this index'],
  ['GET', '/sandbox/v1/account', 'the account setup (master and gas wallets)'],
  [
    'PUT',
    '/sandbox/v1/account',
    '{ masterWalletId, gasWalletId }: the out-of-band account setup; ramps are refused (409) until done',
  ],
  [
    'POST',
    '/sandbox/v1/onramp/deposits',
    "{ reference, amount, coinTo, chainTo, outcome?: 'executed'|'expired'|'failed', quoteId? }: a CLABE deposit of MXN (202)",
  ],
  [
    'POST',
    '/sandbox/v1/offramp/deposits',
    '{ address, coin, amount }: a crypto deposit to a deposit-wallet address; starts the Autoswap (202). A coin the operator does not convert, or fewer tokens than its minimum, stays in the deposit wallet',
  ],
  [
    'GET',
    '/sandbox/v1/offramp/runs',
    'every Autoswap run and its state (in_progress, stranded, completed, not_converted)',
  ],
  ['GET', '/sandbox/v1/prices', 'MXN per token now (quotes keep the price they were made at)'],
  [
    'POST',
    '/sandbox/v1/prices',
    '{ USDT?: "16.90", USDC?: ... }: moves the price orders execute at, so an execution can be off its quote',
  ],
  ['GET', '/sandbox/v1/wallets', 'every wallet with its addresses and balances'],
  ['GET', '/sandbox/v1/wallets/{id}', 'one wallet with its addresses and balances'],
  [
    'POST',
    '/sandbox/v1/wallets/{id}/balances',
    '{ asset, amount, network? }: credits a balance (ETH -> ethereum, TRX -> tron); crediting the gas wallet resumes stranded Autoswaps',
  ],
  [
    'PUT',
    '/sandbox/v1/wallets/{id}/balances',
    "{ asset, amount, network? }: sets a balance to exactly amount (0 or more), e.g. a gas wallet too poor to sweep; raising the gas wallet's resumes stranded Autoswaps",
  ],
  ['GET', '/sandbox/v1/events', 'every event published (?eventType=&resourceId=)'],
  [
    'GET',
    '/sandbox/v1/deliveries',
    'every delivery attempt (?eventType=&resourceId=&recipientId=&outcome=&eventId=&url=)',
  ],
  ['GET', '/sandbox/v1/calls', 'every operator API call received (?route=&method=&status=)'],
  ['GET', '/sandbox/v1/faults', 'the current fault set'],
  [
    'POST',
    '/sandbox/v1/faults',
    'replaces the fault set: { deliveries?, api?, tokenLifetimeMs?, expireTokensNow? }',
  ],
  ['GET', '/sandbox/v1/clock', 'the sandbox clock and its offset'],
  [
    'POST',
    '/sandbox/v1/clock',
    '{ advance: "26s" }: moves the clock forward (quotes, tokens, session IDs expire)',
  ],
  [
    'POST',
    '/sandbox/v1/reset',
    'forgets everything (resources, events, deliveries, calls, faults, clock offset)',
  ],
] as const;

const accountRequest = z.strictObject({ masterWalletId: z.string().min(1), gasWalletId: z.string().min(1) });

const balanceRequest = z.strictObject({
  asset: z.string().regex(/^[A-Z][A-Z0-9]{1,9}$/, 'must be an upper-case asset code'),
  amount: positiveDecimalString,
  /** A network name (networks/tron-mainnet) or chain code (TRX); inferred for ETH and TRX. */
  network: z.string().min(1).optional(),
});

/** A balance set outright: zero is a balance too. */
const balanceSetRequest = balanceRequest.extend({ amount: decimalString });

const clockRequest = z.strictObject({ advance: z.string().min(1) });

const price = positiveDecimalString.refine((value) => decimalPlaces(value) <= 8, 'at most 8 decimals');
const pricesRequest = z
  .strictObject(Object.fromEntries(TOKENS.map((token) => [token, price.optional()])))
  .refine((prices) => Object.keys(prices).length > 0, `name at least one of ${TOKENS.join(', ')}`);

/** Keeps the records whose fields equal every given query parameter (string comparison). */
function filterBy<T extends object>(req: Request, records: readonly T[], fields: readonly string[]): T[] {
  const wanted = fields
    .map((field) => [field, req.query[field]] as const)
    .filter((entry): entry is readonly [string, string] => typeof entry[1] === 'string');
  return records.filter((record) =>
    wanted.every(([field, value]) => String((record as Record<string, unknown>)[field]) === value),
  );
}

export function simulationRouter(core: SandboxCore): Router {
  const router = Router();
  router.get('/', (_req, res) => sendData(res, 200, simulationIndex(core)));
  accountEndpoints(router, core);
  depositEndpoints(router, core);
  walletEndpoints(router, core);
  recordEndpoints(router, core);
  faultEndpoints(router, core);
  clockEndpoints(router, core);
  priceEndpoints(router, core);
  router.post('/reset', (_req, res) => {
    core.reset();
    sendData(res, 200, { reset: true });
  });
  router.use((req: Request, _res: Response) => {
    throw notFound('sandbox endpoint', `${req.method} ${req.baseUrl}${req.path}`);
  });
  return router;
}

function simulationIndex({ ctx }: SandboxCore) {
  return {
    description:
      'Sandbox operator: emulates the operator API at operatorRoutes (its profile, src/domain/operator-profile.ts) ' +
      'plus these simulation endpoints.',
    login: { email: ctx.config.email },
    operatorRoutes: ctx.config.profile.routes,
    accountConfigured: ctx.state.account !== null,
    endpoints: SIMULATION_ENDPOINTS.map(([method, path, description]) => ({ method, path, description })),
  };
}

/** The out-of-band account setup: the master and gas wallets the account contact whitelisted. */
function accountEndpoints(router: Router, { ctx }: SandboxCore): void {
  router.get('/account', (_req, res) => sendData(res, 200, ctx.state.account));

  router.put('/account', (req, res) => {
    const body = parseOr400(accountRequest, req.body);
    if (body.masterWalletId === body.gasWalletId)
      throw badRequest('same_wallet', 'The master and the gas wallet must be two different wallets');
    const master = ctx.state.wallet(body.masterWalletId);
    const gas = ctx.state.wallet(body.gasWalletId);
    const missing = Object.values(NETWORKS).filter((network) => !gas.addresses.has(network));
    if (missing.length > 0)
      throw badRequest(
        'gas_wallet_networks',
        `The gas wallet must be on every supported network; missing: ${missing.join(', ')}`,
      );
    ctx.state.account = { masterWalletId: master.id, gasWalletId: gas.id, configuredAt: ctx.clock.iso() };
    sendData(res, 200, ctx.state.account);
  });
}

/** The deposits that start the flows: MXN to a CLABE (on-ramp), crypto to a deposit wallet (off-ramp). */
function depositEndpoints(router: Router, { ctx, offramp }: SandboxCore): void {
  router.post('/onramp/deposits', (req, res) => {
    const started = startOnRamp(ctx, parseOr400(onRampDepositRequest, req.body));
    sendData(res, 202, {
      orderId: started.order.id,
      orderReference: started.order.orderReference,
      status: started.order.status,
      amountTo: started.order.amountTo,
      transactionId: started.transactionId,
    });
  });

  router.post('/offramp/deposits', (req, res) => {
    const run = offramp.start(parseOr400(offRampDepositRequest, req.body));
    sendData(res, 202, {
      transactionId: run.depositId,
      walletId: run.walletId,
      network: run.network,
      asset: run.asset,
      amount: run.amount,
    });
  });

  router.get('/offramp/runs', (req, res) =>
    sendData(res, 200, filterBy(req, [...offramp.runs.values()], ['status', 'walletId', 'depositId'])),
  );
}

/** Wallets with their addresses and balances, and credits to them. */
function walletEndpoints(router: Router, { ctx, offramp }: SandboxCore): void {
  const view = (wallet: WalletRecord) => ({
    ...walletView(ctx, wallet),
    addresses: Object.fromEntries(wallet.addresses),
    // Networks on which the wallet's one-time sponsor approval is done: its next Autoswap needs no gas top-up.
    approvedNetworks: [...wallet.approvedNetworks],
  });

  router.get('/wallets', (_req, res) => sendData(res, 200, [...ctx.state.wallets.values()].map(view)));

  router.get('/wallets/:id', (req, res) => sendData(res, 200, view(ctx.state.wallet(param(req, 'id')))));

  router.post('/wallets/:id/balances', (req, res) => {
    const wallet = ctx.state.wallet(param(req, 'id'));
    const body = parseOr400(balanceRequest, req.body);
    const network = balanceNetwork(wallet, body);
    ctx.state.credit(wallet.id, network, body.asset, parseAmount(body.amount));
    const amount = formatAmount(ctx.state.balance(wallet.id, network, body.asset));
    if (ctx.state.account?.gasWalletId === wallet.id) offramp.resumeStranded();
    sendData(res, 200, { walletId: wallet.id, network, asset: body.asset, amount });
  });

  router.put('/wallets/:id/balances', (req, res) => {
    const wallet = ctx.state.wallet(param(req, 'id'));
    const body = parseOr400(balanceSetRequest, req.body);
    const network = balanceNetwork(wallet, body);
    const before = ctx.state.balance(wallet.id, network, body.asset);
    const wanted = parseAmount(body.amount);
    ctx.state.credit(wallet.id, network, body.asset, wanted - before);
    if (ctx.state.account?.gasWalletId === wallet.id && wanted > before) offramp.resumeStranded();
    sendData(res, 200, { walletId: wallet.id, network, asset: body.asset, amount: formatAmount(wanted) });
  });
}

/** The network of a balance: the one given, as a network name or a chain code, and one the wallet is on. */
function balanceNetwork(
  wallet: WalletRecord,
  body: Pick<z.infer<typeof balanceRequest>, 'asset' | 'network'>,
): string {
  // A chain's native asset names its network; any other asset needs the network given.
  const network =
    body.network === undefined
      ? Object.values(CHAINS).find((chain) => chain.nativeAsset === body.asset)?.network
      : isChainCode(body.network)
        ? CHAINS[body.network].network
        : body.network;
  if (network === undefined)
    throw badRequest(
      'network_required',
      `Give the network of ${body.asset} (a network name or ${Object.keys(CHAINS).join('/')})`,
    );
  if (!wallet.addresses.has(network))
    throw badRequest('wallet_network_missing', `Wallet ${wallet.id} is not on ${network}`);
  return network;
}

/** What the sandbox published, delivered and was called with, filtered by query parameters. */
function recordEndpoints(router: Router, { ctx }: SandboxCore): void {
  router.get('/events', (req, res) =>
    sendData(res, 200, filterBy(req, ctx.delivery.events, ['eventType', 'resourceId', 'kind'])),
  );

  router.get('/deliveries', (req, res) =>
    sendData(
      res,
      200,
      filterBy(req, ctx.delivery.attempts, [
        'eventType',
        'resourceId',
        'recipientId',
        'outcome',
        'eventId',
        'url',
        'deliveryId',
        'attempt',
        'final',
      ]),
    ),
  );

  router.get('/calls', (req, res) =>
    sendData(
      res,
      200,
      filterBy(req, ctx.state.calls, ['route', 'method', 'status', 'externalUserId', 'path']),
    ),
  );
}

/** The fault set, and tokens expired on demand. */
function faultEndpoints(router: Router, { ctx }: SandboxCore): void {
  router.get('/faults', (_req, res) => sendData(res, 200, ctx.faults.current));

  router.post('/faults', (req, res) => {
    const { expireTokensNow, ...faults } = parseOr400(faultsRequestSchema, req.body ?? {});
    const current = ctx.faults.set(faults);
    const expired = expireTokensNow === true ? { expiredTokens: expireTokens(ctx) } : {};
    sendData(res, 200, { ...current, ...expired });
  });
}

/** Expires every token still valid; answers how many. */
function expireTokens(ctx: SandboxCore['ctx']): number {
  const now = ctx.clock.now();
  let expired = 0;
  for (const token of ctx.state.tokens.values()) {
    if (token.expiresAt > now) {
      token.expiresAt = now;
      expired += 1;
    }
  }
  return expired;
}

/** The sandbox clock, moved forward on demand (quotes, tokens and session IDs expire by it). */
function clockEndpoints(router: Router, { ctx }: SandboxCore): void {
  const now = () => ({ now: ctx.clock.iso(), offsetMs: ctx.clock.offset });

  router.get('/clock', (_req, res) => sendData(res, 200, now()));

  router.post('/clock', (req, res) => {
    const body = parseOr400(clockRequest, req.body);
    let ms: number;
    try {
      ms = parseDurationMs(body.advance);
    } catch (error) {
      throw badRequest('validation_error', (error as Error).message);
    }
    ctx.clock.advance(ms);
    sendData(res, 200, now());
  });
}

/** The price orders execute at, moved on demand (an execution off its quote). */
function priceEndpoints(router: Router, { ctx }: SandboxCore): void {
  const prices = () => Object.fromEntries(TOKENS.map((token) => [token, ctx.state.priceOf(token)]));

  router.get('/prices', (_req, res) => sendData(res, 200, prices()));

  router.post('/prices', (req, res) => {
    const body = parseOr400(pricesRequest, req.body);
    for (const [token, price] of Object.entries(body))
      if (price !== undefined) ctx.state.prices.set(token, price);
    sendData(res, 200, prices());
  });
}
