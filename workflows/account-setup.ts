/**
 * account-setup: one long-lived workflow per namespace (fixed ID, src/client/ids.ts). It creates the account's
 * master and gas wallets on the Ethereum and Tron networks, reads their addresses, registers our receiver for both
 * webhook recipient kinds (list first, add only what is missing, remove only stale recipients it created itself),
 * and keeps the result: a query answers it, the memo and RampStatus show it in the Web UI.
 *
 * `setupAccount` updates (update-with-start) each trigger a pass; a pass reuses the wallets already recorded and
 * re-checks the recipients, so running the setup twice creates nothing new. Wallet creation journals the
 * operator's answer (walletCreated signal carrying the role) exactly like the end user's deposit wallet.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  patched,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RampActivities } from '../activities';
import { Networks, RampStatus } from '../src/temporal/search-attributes';
import { operatorActivityOptions } from './activity-options';
import { accountStateQuery, setupAccountUpdate, walletCreatedSignal, accountWalletJournalUpdate, walletCreationRequestedSignal } from './messages';
import { extraWalletCount, unconfirmedCreations, withAnswer, withRequest } from './wallet-journal';
import type {
  AccountRecipient,
  AccountSetupInput,
  AccountSetupResult,
  AccountSetupState,
  AccountWallet,
  AccountWalletRole,
  RecipientKindName,
} from './types';

const MAX_HISTORY_EVENTS = 2_000;
const ROLES: readonly AccountWalletRole[] = ['master', 'gas'];
const RECIPIENT_KINDS: readonly RecipientKindName[] = ['transaction', 'order'];

/** What the operator still needs before it enables each product (spec section 1), with our addresses filled in. */
function nextSteps(master: AccountWallet, gas: AccountWallet): string[] {
  const list = (wallet: AccountWallet) => wallet.addresses.map((entry) => `${entry.network} ${entry.address}`).join(', ');
  return [
    `Whitelisting: hand the master wallet addresses (${list(master)}) and the gas wallet addresses (${list(gas)}) to the account contact at the operator.`,
    'On Ramp: tell the account contact the markets (currency corridors, e.g. MXN -> USDT on TRX) and the master wallet on the network of each corridor.',
    'Autoswap (off ramp): tell the account contact the markets, the bank accounts to settle to (the operator verifies them before going live), and the gas wallet.',
    'Gas: fund the gas wallet with the native token of every supported chain (ETH, TRX); without it Autoswap fails and deposits stay unsettled.',
  ];
}

export async function accountSetupWorkflow(input: AccountSetupInput): Promise<void> {
  const { timings } = input;
  const activities = proxyActivities<RampActivities>(operatorActivityOptions(timings, { heartbeat: true }));
  const alerts = proxyActivities<RampActivities>(operatorActivityOptions(timings));
  const carried = input.carried;
  const state: AccountSetupState = {
    status: carried?.result ? 'ready' : 'none',
    wallets: carried?.wallets ?? {},
    journal: carried?.journal ?? {},
    recipients: carried?.recipients ?? [],
    orphanWallets: carried?.orphanWallets ?? [],
    ...(carried?.creationRequests ? { creationRequests: carried.creationRequests } : {}),
    ...(carried?.unconfirmedCreations ? { unconfirmedCreations: carried.unconfirmedCreations } : {}),
    ...(carried?.extraWalletsReported ? { extraWalletsReported: carried.extraWalletsReported } : {}),
    ...(carried?.result ? { result: carried.result } : {}),
    setupRuns: carried?.setupRuns ?? 0,
    createdAt: carried?.createdAt ?? new Date().toISOString(),
  };
  /** Passes requested by updates, and the request number the last finished pass covered. */
  let requested = 0;
  let covered = 0;

  setHandler(accountStateQuery, () => state);
  // Handlers register no command, so adding one keeps old histories replaying.
  setHandler(accountWalletJournalUpdate, (role) => state.journal[role] ?? null);
  /** The role whose wallet is being created right now (its newest request still waits for its answer). */
  let creating: AccountWalletRole | undefined;
  setHandler(walletCreationRequestedSignal, (request) => {
    const role = request.role;
    if (!role || !ROLES.includes(role)) return;
    const requests = (state.creationRequests ??= {});
    requests[role] = withRequest(requests[role] ?? [], request, new Date().toISOString());
    refreshUnconfirmed(role);
  });
  setHandler(walletCreatedSignal, (created) => {
    const role = created.role;
    if (!role || !ROLES.includes(role)) return;
    if (created.requestId) {
      const requests = (state.creationRequests ??= {});
      requests[role] = withAnswer(requests[role] ?? [], created, new Date().toISOString());
    }
    const journaled = state.journal[role];
    if (!journaled) state.journal[role] = created;
    else if (journaled.walletId !== created.walletId) recordOrphan(role, created.walletId, 'second CreateWallet answer journaled');
    refreshUnconfirmed(role);
  });
  setHandler(setupAccountUpdate, async (): Promise<AccountSetupResult> => {
    const mine = ++requested;
    await condition(() => covered >= mine);
    if (state.status === 'ready' && state.result) return state.result;
    throw ApplicationFailure.create({
      type: 'AccountSetupFailed',
      message: `The account setup failed: ${state.lastError ?? 'unknown error'}`,
    });
  });

  /** Requests sent without an answer are possible orphans whose ID cannot be known: list them per role. */
  function refreshUnconfirmed(role: AccountWalletRole) {
    const requests = state.creationRequests?.[role];
    if (!requests?.length) return;
    (state.unconfirmedCreations ??= {})[role] = unconfirmedCreations(state.unconfirmedCreations?.[role], requests, creating === role);
  }

  const extraWallets = () => extraWalletCount(state.orphanWallets, ROLES.flatMap((role) => state.unconfirmedCreations?.[role] ?? []));

  /** Every account wallet the operator may hold besides the ones recorded is an incident for the operations team. */
  async function raiseExtraWallets(): Promise<void> {
    const count = extraWallets();
    if (patched('extra-wallet-incident')) {
      try {
        await alerts.raiseAlert({
          kind: 'extra-wallet',
          message: `The operator may hold ${count} account wallet(s) besides the master and gas wallets recorded: close them with the operator by label`,
          workflowId: workflowInfo().workflowId,
          details: {
            walletOwner: workflowInfo().workflowId,
            orphanWallets: state.orphanWallets.length,
            unconfirmedCreations: ROLES.reduce((sum, role) => sum + (state.unconfirmedCreations?.[role]?.length ?? 0), 0),
          },
        });
      } catch (error) {
        log.error('Extra wallet incident could not be raised', { error: error instanceof Error ? error.message : String(error) });
      }
    }
    state.extraWalletsReported = count;
  }

  function recordOrphan(role: AccountWalletRole, walletId: string, reason: string) {
    if (state.wallets[role]?.walletId === walletId || state.orphanWallets.some((orphan) => orphan.walletId === walletId)) return;
    state.orphanWallets.push({ role, walletId, reason, recordedAt: new Date().toISOString() });
    log.warn('Orphan account wallet recorded (its address is never handed out)', { role, walletId, reason });
  }

  function publish() {
    const status = state.status === 'ready' ? 'account-ready' : state.status === 'failed' ? 'account-failed' : 'account-pending';
    const networks = [...new Set(Object.values(state.wallets).flatMap((wallet) => wallet?.addresses.map((entry) => entry.network) ?? []))];
    upsertSearchAttributes([
      { key: RampStatus, value: status },
      ...(networks.length > 0 ? [{ key: Networks, value: networks }] : []),
    ]);
    upsertMemo({
      accountSetup: {
        status: state.status,
        whitelist: state.result?.whitelist ?? [],
        recipients: state.recipients.map(({ kind, id, redactedUrl, createdByUs }) => ({ kind, id, redactedUrl, createdByUs })),
        orphanWallets: state.orphanWallets,
        setupRuns: state.setupRuns,
        completedAt: state.result?.completedAt ?? null,
        lastError: state.lastError ?? null,
      },
    });
  }

  async function ensureWallet(role: AccountWalletRole): Promise<AccountWallet> {
    const recorded = state.wallets[role];
    if (recorded) return recorded;
    creating = role;
    let created;
    try {
      created = state.journal[role] ?? (await activities.createAccountWallet({ role, workflowId: workflowInfo().workflowId }));
    } finally {
      creating = undefined;
      refreshUnconfirmed(role);
    }
    // The activity's answer settles its request even when its journal signal was lost.
    if (created.requestId && state.creationRequests?.[role]) {
      state.creationRequests[role] = withAnswer(state.creationRequests[role], { ...created, attempt: 0 }, new Date().toISOString());
      refreshUnconfirmed(role);
    }
    // The journal may have arrived while the activity ran; the journaled wallet is the one the operator created first.
    const chosen = state.journal[role] ?? created;
    if (created.walletId !== chosen.walletId) recordOrphan(role, created.walletId, 'activity answered a different wallet');
    const addresses = await activities.getWalletAddresses({ walletId: chosen.walletId });
    const wallet: AccountWallet = {
      role,
      walletId: chosen.walletId,
      externalUserId: chosen.externalUserId,
      addresses: addresses.map(({ network, address }) => ({ network, address })),
      createdAt: new Date().toISOString(),
    };
    state.wallets[role] = wallet;
    return wallet;
  }

  async function ensureRecipients(): Promise<{ added: AccountRecipient[]; removed: AccountRecipient[] }> {
    const added: AccountRecipient[] = [];
    const removed: AccountRecipient[] = [];
    for (const kind of RECIPIENT_KINDS) {
      const { recipient, created } = await activities.ensureWebhookRecipient({ kind });
      const before = state.recipients.find((entry) => entry.kind === kind && entry.id === recipient.id);
      const current: AccountRecipient = {
        kind,
        id: recipient.id,
        redactedUrl: recipient.redactedUrl,
        createdByUs: created || (before?.createdByUs ?? false),
        recordedAt: before?.recordedAt ?? new Date().toISOString(),
      };
      if (created) added.push(current);
      // Stale: recipients of this kind this workflow created earlier for a receiver URL that is no longer ours.
      const stale = state.recipients.filter((entry) => entry.kind === kind && entry.createdByUs && entry.id !== current.id);
      if (stale.length > 0) {
        const listed = await activities.listWebhookRecipients({ kind });
        for (const old of stale) {
          const still = listed.find((entry) => entry.id === old.id);
          if (still && !still.matchesReceiver) {
            await activities.deleteWebhookRecipient({ kind, id: old.id });
            removed.push(old);
          }
        }
      }
      state.recipients = [...state.recipients.filter((entry) => entry.kind !== kind), current];
    }
    return { added, removed };
  }

  async function runSetup(): Promise<void> {
    state.status = 'running';
    publish();
    try {
      const wallets: Partial<Record<AccountWalletRole, AccountWallet>> = {};
      for (const role of ROLES) wallets[role] = await ensureWallet(role);
      const { added, removed } = await ensureRecipients();
      const master = wallets.master!;
      const gas = wallets.gas!;
      const recipientOf = (kind: RecipientKindName) => state.recipients.find((entry) => entry.kind === kind)!;
      state.setupRuns += 1;
      state.result = {
        status: 'ready',
        masterWallet: master,
        gasWallet: gas,
        recipients: { transaction: recipientOf('transaction'), order: recipientOf('order') },
        addedRecipients: added,
        removedRecipients: removed,
        whitelist: [master, gas].flatMap((wallet) => wallet.addresses.map(({ network, address }) => ({ role: wallet.role, network, address }))),
        nextSteps: nextSteps(master, gas),
        setupRuns: state.setupRuns,
        completedAt: new Date().toISOString(),
      };
      state.status = 'ready';
      delete state.lastError;
    } catch (error) {
      state.status = 'failed';
      state.lastError = error instanceof Error ? error.message : String(error);
      log.error('Account setup failed', { error: state.lastError });
    }
    publish();
  }

  publish();
  for (;;) {
    await condition(
      () =>
        requested > covered ||
        extraWallets() > (state.extraWalletsReported ?? 0) ||
        workflowInfo().continueAsNewSuggested ||
        workflowInfo().historyLength > MAX_HISTORY_EVENTS,
    );
    if (requested > covered) {
      const passFor = requested;
      await runSetup();
      covered = passFor;
      continue;
    }
    if (extraWallets() > (state.extraWalletsReported ?? 0)) {
      await raiseExtraWallets();
      continue;
    }
    await condition(allHandlersFinished);
    await continueAsNew<typeof accountSetupWorkflow>({
      timings,
      carried: {
        wallets: state.wallets,
        journal: state.journal,
        recipients: state.recipients,
        orphanWallets: state.orphanWallets,
        ...(state.creationRequests ? { creationRequests: state.creationRequests } : {}),
        ...(state.unconfirmedCreations ? { unconfirmedCreations: state.unconfirmedCreations } : {}),
        ...(state.extraWalletsReported ? { extraWalletsReported: state.extraWalletsReported } : {}),
        ...(state.result ? { result: state.result } : {}),
        setupRuns: state.setupRuns,
        createdAt: state.createdAt,
      },
    });
  }
}
