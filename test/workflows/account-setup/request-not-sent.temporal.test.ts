/**
 * A CreateWallet refused before the operator carried it out, through the real operator client and the sandbox over
 * HTTP: the session's token has expired, the call is answered 401, and the login that follows fails. The activity
 * journals that request as not sent, so the retry creates at once and the account setup reports no extra wallet.
 */
import { accountStateQuery } from '../../../workflows/account-setup/messages';
import { type Stack, startStack } from '../../helpers/client-stack';
import { recordHistory } from '../../helpers/histories';

describe('account setup: a CreateWallet the operator never carried out (dev server + sandbox over HTTP)', () => {
  let stack: Stack;
  const workflowId = `account-setup-not-sent-${Date.now()}`;

  beforeAll(async () => {
    stack = await startStack({ accountSetupWorkflowId: workflowId });
  });
  afterAll(async () => {
    await stack.stop();
  });

  test('401 and a failed login: journaled as not sent, one master wallet, nothing reported', async () => {
    const { ramp, sandbox, operator, client } = stack;
    // Logged in now, so that the setup's first call is CreateWallet with a token the sandbox has expired; the login
    // that the 401 calls for then fails once.
    await operator.ensureSession();
    const faults = await fetch(`${sandbox.url}/sandbox/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        expireTokensNow: true,
        api: { failNext: 1, failStatus: 503, routes: ['authenticate'] },
      }),
    });
    expect(faults.status).toBe(200);

    const result = await ramp.setupAccount();

    // The first CreateWallet (the master's) was refused with 401; the sandbox records no label for a refused call.
    const createWallets = sandbox.calls().filter((call) => call.route === 'createWallet');
    expect(createWallets.map((call) => [call.status, call.externalUserId ?? null])).toEqual([
      [401, null],
      [201, 'ramp-orchestrator/master'],
      [201, 'ramp-orchestrator/gas'],
    ]);
    expect(
      [...sandbox.state.wallets.values()].filter(
        (wallet) => wallet.externalUserId === 'ramp-orchestrator/master',
      ),
    ).toHaveLength(1);
    expect(result.masterWallet.walletId).toBeDefined();

    const state = await client.workflow.getHandle(workflowId).query(accountStateQuery);
    expect(state.journals.master.requests).toEqual([
      expect.objectContaining({ attempt: 1, notSent: true }),
      expect.objectContaining({ attempt: 2, answeredWalletId: result.masterWallet.walletId }),
    ]);
    expect(state.journals.master.unconfirmed).toEqual([]);
    expect(state.extraWalletsReported).toBe(0);
    // The reason names the failed login, never a token or a passcode.
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const notSent = (history.events ?? []).filter(
      (event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'walletCreationNotSent',
    );
    expect(notSent).toHaveLength(1);
    const payload = Buffer.from(
      notSent[0]!.workflowExecutionSignaledEventAttributes!.input!.payloads![0]!.data!,
    ).toString('utf8');
    expect(JSON.parse(payload)).toMatchObject({ role: 'master', reason: 'authenticate: server_error' });
    await recordHistory(client, workflowId, 'account-setup-request-not-sent', { running: true });
  });
});
