/**
 * End users' deposit wallets against the sandbox: exactly one CreateWallet under 50 concurrent callers, distinct
 * users get distinct addresses, and the user's workflow is findable in visibility by its search attributes.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../../src/client/errors';
import { endUserWorkflowId } from '../../../src/domain/ids';
import { NETWORKS } from '../../../src/domain/vocabulary';
import { EndUserId, Networks, RampStatus, WalletId } from '../../../src/domain/search-attributes';
import { type Stack, startStack, waitFor } from '../../helpers/client-stack';

describe('deposit wallets (real dev server + sandbox over HTTP)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.stop();
  });

  const createWalletCalls = (externalUserId: string) =>
    stack.sandbox
      .calls()
      .filter((call) => call.route === 'createWallet' && call.externalUserId === externalUserId);

  test('50 concurrent ensureDepositWallet calls for one user = one CreateWallet, same addresses for every caller', async () => {
    const endUserId = `conc-${randomUUID().slice(0, 8)}`;
    const wallets = await Promise.all(
      Array.from({ length: 50 }, () => stack.ramp.ensureDepositWallet(endUserId)),
    );

    expect(createWalletCalls(`end-user:${endUserId}`)).toHaveLength(1);
    expect(new Set(wallets.map((wallet) => JSON.stringify(wallet))).size).toBe(1);
    const wallet = wallets[0]!;
    expect(wallet.addresses.map((entry) => entry.network).sort()).toEqual(
      [NETWORKS.ethereum, NETWORKS.tron].sort(),
    );
    expect(stack.sandbox.state.wallets.has(wallet.walletId)).toBe(true);

    // Later calls answer from the workflow's record: still one CreateWallet.
    await expect(stack.ramp.ensureDepositWallet(endUserId)).resolves.toEqual(wallet);
    await expect(stack.ramp.getDepositWallet(endUserId)).resolves.toEqual(wallet);
    expect(createWalletCalls(`end-user:${endUserId}`)).toHaveLength(1);
  });

  test('an address read that fails after CreateWallet retries into the journaled wallet: one wallet, its addresses', async () => {
    const endUserId = `addr-${randomUUID().slice(0, 8)}`;
    // The creating activity reads the addresses itself; its first attempt fails on that read, after the wallet exists.
    stack.sandbox.setFaults({ api: { failNext: 1, routes: ['getWalletAddresses'] } });
    try {
      const wallet = await stack.ramp.ensureDepositWallet(endUserId);
      expect(createWalletCalls(`end-user:${endUserId}`)).toHaveLength(1);
      expect(wallet.addresses).toHaveLength(2);
      const history = await stack.client.workflow.getHandle(endUserWorkflowId(endUserId)).fetchHistory();
      const attempts = (history.events ?? [])
        .map((event) => event.activityTaskStartedEventAttributes?.attempt)
        .filter((attempt) => attempt !== undefined && attempt !== null);
      const scheduled = (history.events ?? [])
        .map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name)
        .filter((name) => name !== undefined && name !== null);
      // One activity, retried once; no separate address read (the ledger write is a local activity, a marker).
      expect(scheduled).toEqual(['createDepositWallet']);
      expect(attempts[0]).toBeGreaterThan(1);
    } finally {
      stack.sandbox.setFaults({});
    }
  });

  test('different users get different wallets and addresses', async () => {
    const ids = Array.from({ length: 5 }, (_, index) => `distinct-${index}-${randomUUID().slice(0, 6)}`);
    const wallets = await Promise.all(ids.map((id) => stack.ramp.ensureDepositWallet(id)));
    expect(new Set(wallets.map((wallet) => wallet.walletId)).size).toBe(ids.length);
    const addresses = wallets.flatMap((wallet) => wallet.addresses.map((entry) => entry.address));
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const id of ids) expect(createWalletCalls(`end-user:${id}`)).toHaveLength(1);
  });

  test('the user workflow is listed under its readable ID with its search attributes (list + describe)', async () => {
    const endUserId = `visible-${randomUUID().slice(0, 8)}`;
    const wallet = await stack.ramp.ensureDepositWallet(endUserId);

    // Visibility is eventually consistent: poll with a bounded timeout.
    const listed = await waitFor(
      async () => {
        const found = [];
        for await (const execution of stack.client.workflow.list({ query: `RampEndUserId = "${endUserId}"` }))
          found.push(execution);
        const ready = found.filter((execution) => execution.searchAttributes[WalletId.name] !== undefined);
        return ready.length > 0 ? ready : undefined;
      },
      'the end user workflow in visibility with its wallet ID',
      20_000,
    );
    expect(listed).toHaveLength(1);
    expect(listed[0]!.workflowId).toBe(endUserWorkflowId(endUserId));
    expect(listed[0]!.workflowId).toBe(`end-user/${endUserId}`);

    const description = await stack.client.workflow.getHandle(endUserWorkflowId(endUserId)).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.typedSearchAttributes.get(EndUserId)).toBe(endUserId);
    expect(description.typedSearchAttributes.get(WalletId)).toBe(wallet.walletId);
    expect([...(description.typedSearchAttributes.get(Networks) ?? [])].sort()).toEqual(
      [NETWORKS.ethereum, NETWORKS.tron].sort(),
    );
    expect(description.typedSearchAttributes.get(RampStatus)).toBe('wallet-ready');
  });

  test('an unknown end user is NotFoundError; a bad ID is refused without any operator call', async () => {
    const before = stack.sandbox.calls().length;
    await expect(stack.ramp.getEndUser(`never-seen-${randomUUID().slice(0, 8)}`)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(stack.ramp.ensureDepositWallet('bad id')).rejects.toThrow('Invalid end user ID');
    expect(stack.sandbox.calls().length).toBe(before);
  });
});
