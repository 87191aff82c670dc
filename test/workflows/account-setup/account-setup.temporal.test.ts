/**
 * Account setup against the sandbox: master + gas wallets on Ethereum and Tron, both recipient kinds registered,
 * idempotent on a second run, durable and readable later (query, memo, search attribute).
 */
import { NETWORKS } from '../../../src/domain/vocabulary';
import { orderRecipientUrl, transactionRecipientUrl } from '../../../src/config/receiver';
import { RampStatus } from '../../../src/domain/search-attributes';
import { formatAccountSetup } from '../../../src/entry/account-setup';
import { recordHistory } from '../../helpers/histories';
import { type Stack, startStack, testReceiver } from '../../helpers/client-stack';

describe('account setup (real dev server + sandbox over HTTP)', () => {
  let stack: Stack;
  const workflowId = `account-setup-it-${Date.now()}`;

  beforeAll(async () => {
    stack = await startStack({ accountSetupWorkflowId: workflowId });
  });
  afterAll(async () => {
    await stack.stop();
  });

  test('twice = one master wallet, one gas wallet, one recipient of each kind; same result; foreign recipients kept', async () => {
    const { ramp, sandbox, operator } = stack;
    // A recipient somebody else registered: the setup must neither count it as ours nor remove it.
    const [foreign] = await operator.createRecipients('transaction', [
      'https://other-system.example/hooks/tx',
    ]);

    const first = await ramp.setupAccount();
    const second = await ramp.setupAccount();
    // The account-setup workflow stays open: its history so far is what the replay test checks.
    await recordHistory(ramp.temporal, workflowId, 'account-setup-twice', { running: true });

    const calls = sandbox.calls();
    const createWallets = calls.filter((call) => call.route === 'createWallet' && call.status < 300);
    expect(createWallets.map((call) => call.externalUserId).sort()).toEqual([
      'ramp-orchestrator/gas',
      'ramp-orchestrator/master',
    ]);
    expect(calls.filter((call) => call.route === 'createTransactionRecipients')).toHaveLength(2); // the foreign one + ours
    expect(calls.filter((call) => call.route === 'createOrderRecipients')).toHaveLength(1);
    expect(
      calls.filter(
        (call) => call.route === 'deleteTransactionRecipient' || call.route === 'deleteOrderRecipient',
      ),
    ).toHaveLength(0);

    const transactionRecipients = await operator.listAllRecipients('transaction');
    const orderRecipients = await operator.listAllRecipients('order');
    expect(transactionRecipients.map((recipient) => recipient.url).sort()).toEqual(
      [transactionRecipientUrl(testReceiver()), 'https://other-system.example/hooks/tx'].sort(),
    );
    expect(orderRecipients.map((recipient) => recipient.url)).toEqual([orderRecipientUrl(testReceiver())]);
    expect(transactionRecipients.some((recipient) => recipient.id === foreign!.id)).toBe(true);

    // Same wallets, same addresses, same recipients; the second run added nothing.
    expect(second.masterWallet).toEqual(first.masterWallet);
    expect(second.gasWallet).toEqual(first.gasWallet);
    expect(second.recipients).toEqual(first.recipients);
    expect(second.whitelist).toEqual(first.whitelist);
    expect(first.addedRecipients.map((recipient) => recipient.kind).sort()).toEqual(['order', 'transaction']);
    expect(second.addedRecipients).toEqual([]);
    expect(second.setupRuns).toBe(2);

    for (const wallet of [first.masterWallet, first.gasWallet]) {
      expect(wallet.addresses.map((entry) => entry.network).sort()).toEqual(
        [NETWORKS.ethereum, NETWORKS.tron].sort(),
      );
    }
    expect(first.masterWallet.walletId).not.toBe(first.gasWallet.walletId);
    expect(first.whitelist).toHaveLength(4);
    expect(first.nextSteps.join('\n')).toMatch(/markets/);
    expect(first.nextSteps.join('\n')).toMatch(/bank accounts/);
    expect(first.nextSteps.join('\n')).toMatch(/gas wallet/);

    // The receiver's secrets never leave the activities: the recorded URLs are redacted.
    const printed = formatAccountSetup(second);
    expect(printed).toContain(first.masterWallet.addresses[0]!.address);
    expect(printed).not.toContain(testReceiver().transactionSecret.reveal());
    const history = JSON.stringify((await stack.client.workflow.getHandle(workflowId).fetchHistory()).events);
    expect(history).not.toContain(testReceiver().transactionSecret.reveal());
    expect(history).not.toContain(testReceiver().orderSecret.reveal());
  });

  test('the result is durable and readable later: typed client, memo and search attribute', async () => {
    const account = await stack.ramp.getAccount();
    expect(account.status).toBe('ready');
    expect(account.result?.masterWallet.externalUserId).toBe('ramp-orchestrator/master');
    expect(account.orphanWallets).toEqual([]);

    const description = await stack.client.workflow.getHandle(workflowId).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.typedSearchAttributes.get(RampStatus)).toBe('account-ready');
    const memo = description.memo?.accountSetup as { status: string; whitelist: unknown[] } | undefined;
    expect(memo?.status).toBe('ready');
    expect(memo?.whitelist).toHaveLength(4);
  });
});
