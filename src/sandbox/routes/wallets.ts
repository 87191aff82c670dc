/** CreateWallet, GetWalletAddresses (paged) and the current vault networks. */
import { createWalletRequest } from '../../operator/schemas';
import { addressFor } from '../addresses';
import type { SandboxContext } from '../context';
import { badRequest, parseOr400 } from '../errors';
import { paginate, param, sendData } from '../http/respond';
import { NETWORK_OBJECTS, networkObject } from '../networks';
import type { WalletRecord } from '../state';
import type { OperatorHandlers } from './types';

export function walletView(ctx: SandboxContext, wallet: WalletRecord) {
  return {
    id: wallet.id,
    externalUserId: wallet.externalUserId,
    networks: wallet.networks.map((name) => ({ id: name, network: networkObject(name) })),
    balances: ctx.state.allBalancesOf(wallet),
    createdAt: wallet.createdAt,
  };
}

function uniqueAddress(ctx: SandboxContext, network: string): string {
  for (;;) {
    const address = addressFor(network, ctx.random);
    if (!ctx.state.addresses.has(address)) return address;
  }
}

export function walletHandlers(
  ctx: SandboxContext,
): OperatorHandlers<'currentVaultNetworks' | 'createWallet' | 'getWalletAddresses'> {
  return {
    currentVaultNetworks(_req, res) {
      sendData(res, 200, [...NETWORK_OBJECTS.values()]);
    },

    createWallet(req, res) {
      const raw: unknown = req.body;
      if (
        raw !== null &&
        typeof raw === 'object' &&
        typeof (raw as { externalUserId?: unknown }).externalUserId === 'string'
      ) {
        res.locals.externalUserId = (raw as { externalUserId: string }).externalUserId;
      }
      const body = parseOr400(createWalletRequest, raw);
      const networks = [...new Set(body.networks)];
      const unknown = networks.filter((name) => !NETWORK_OBJECTS.has(name));
      if (unknown.length > 0) {
        throw badRequest(
          'unknown_network',
          `Unknown network(s): ${unknown.join(', ')} (known: ${[...NETWORK_OBJECTS.keys()].join(', ')})`,
        );
      }
      const wallet: WalletRecord = {
        id: ctx.random.uuid(),
        externalUserId: body.externalUserId,
        networks,
        addresses: new Map(),
        balances: new Map(),
        approvedNetworks: new Set(),
        createdAt: ctx.clock.iso(),
      };
      for (const network of networks) {
        const address = uniqueAddress(ctx, network);
        wallet.addresses.set(network, address);
        ctx.state.addresses.set(address, { walletId: wallet.id, network });
      }
      ctx.state.wallets.set(wallet.id, wallet);
      sendData(res, 201, { ...walletView(ctx, wallet), balances: [] });
    },

    getWalletAddresses(req, res) {
      const wallet = ctx.state.wallet(param(req, 'id'));
      const entries = wallet.networks.map((network) => ({
        id: wallet.id,
        address: wallet.addresses.get(network) ?? '',
        network: networkObject(network),
        balances: ctx.state.balancesOf(wallet, network),
      }));
      const page = paginate(req, entries, ctx.config.profile.paging);
      sendData(res, 200, page.items, {
        totalRecord: page.totalRecord,
        totalPage: page.totalPage,
        offset: page.offset,
        limit: page.limit,
        pageNumber: page.page,
      });
    },
  };
}
