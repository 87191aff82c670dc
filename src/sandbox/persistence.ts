/**
 * Optional persistence of the sandbox's durable state (wallets and their balances, recipients, the account step,
 * orders and transactions) to a JSON file, so that `npm start` restarted on the same `.data/` finds the same
 * wallets the workflows recorded. Login sessions, tokens, quotes and flows in flight are not kept: a restart is
 * like an operator restart (clients log in again; a flow cut short stops where it was).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RESOURCE_KINDS, type ResourceKind } from '../domain/vocabulary';
import type {
  AccountSetup,
  OrderRecord,
  RecipientRecord,
  SandboxState,
  TransactionRecord,
  WalletRecord,
} from './state';

const SNAPSHOT_VERSION = 1;

interface WalletSnapshot extends Omit<WalletRecord, 'addresses' | 'balances' | 'approvedNetworks'> {
  addresses: [string, string][];
  /** network → asset → amount in base units, as a decimal string (BigInt does not survive JSON). */
  balances: [string, [string, string][]][];
  approvedNetworks: string[];
}

export interface SandboxSnapshot {
  version: number;
  savedAt: string;
  wallets: WalletSnapshot[];
  recipients: Record<ResourceKind, RecipientRecord[]>;
  orders: OrderRecord[];
  transactions: TransactionRecord[];
  account: AccountSetup | null;
}

export function snapshotState(state: SandboxState, now = new Date()): SandboxSnapshot {
  return {
    version: SNAPSHOT_VERSION,
    savedAt: now.toISOString(),
    wallets: [...state.wallets.values()].map((wallet) => ({
      ...wallet,
      addresses: [...wallet.addresses.entries()],
      balances: [...wallet.balances.entries()].map(([network, assets]) => [
        network,
        [...assets.entries()].map(([asset, amount]) => [asset, amount.toString()] as [string, string]),
      ]),
      approvedNetworks: [...wallet.approvedNetworks],
    })),
    recipients: Object.fromEntries(
      RESOURCE_KINDS.map((kind) => [kind, [...state.recipients[kind].values()]]),
    ) as Record<ResourceKind, RecipientRecord[]>,
    orders: [...state.orders.values()],
    transactions: [...state.transactions.values()],
    account: state.account,
  };
}

export function restoreState(state: SandboxState, snapshot: SandboxSnapshot): void {
  if (snapshot.version !== SNAPSHOT_VERSION) {
    throw new Error(
      `sandbox state file has version ${snapshot.version}; this sandbox reads version ${SNAPSHOT_VERSION}`,
    );
  }
  for (const saved of snapshot.wallets) {
    const wallet: WalletRecord = {
      ...saved,
      addresses: new Map(saved.addresses),
      balances: new Map(
        saved.balances.map(([network, assets]) => [
          network,
          new Map(assets.map(([asset, amount]) => [asset, BigInt(amount)])),
        ]),
      ),
      approvedNetworks: new Set(saved.approvedNetworks),
    };
    state.wallets.set(wallet.id, wallet);
    for (const [network, address] of wallet.addresses)
      state.addresses.set(address, { walletId: wallet.id, network });
  }
  for (const kind of RESOURCE_KINDS) {
    for (const recipient of snapshot.recipients[kind]) state.recipients[kind].set(recipient.id, recipient);
  }
  for (const order of snapshot.orders) {
    state.orders.set(order.id, order);
    state.orderReferences.add(order.orderReference);
  }
  for (const transaction of snapshot.transactions) state.transactions.set(transaction.id, transaction);
  state.account = snapshot.account;
}

export function loadSnapshot(file: string): SandboxSnapshot | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as SandboxSnapshot;
}

/** Writes atomically (temp file + rename) so a crash never leaves half a file. */
export function saveSnapshot(file: string, snapshot: SandboxSnapshot): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const staging = `${file}.tmp`;
  writeFileSync(staging, JSON.stringify(snapshot));
  renameSync(staging, file);
}
