/**
 * One run per process ID for the long-lived processes: an end user's process or the account setup closed by hand
 * (they never end by themselves) is never started again by a later call, because a new run would create a second
 * wallet for the same label.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import { SecretString } from '../../../src/secrets/secret-string';
import { endUserWorkflowId } from '../../../src/domain/ids';
import { endUserWorkflow } from '../../../workflows/end-user/workflow';
import { type Stack, startStack } from '../../helpers/client-stack';

describe('closed long-lived processes are not run again (real dev server + sandbox over HTTP)', () => {
  let stack: Stack;
  const accountSetupWorkflowId = `account-setup-${randomUUID()}`;

  beforeAll(async () => {
    stack = await startStack({ accountSetupWorkflowId });
  });
  afterAll(async () => {
    await stack.stop();
  });

  async function runsOf(workflowId: string): Promise<string[]> {
    const runs: string[] = [];
    for await (const execution of stack.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
      runs.push(execution.status.name);
    return runs;
  }
  const walletsLabelled = (label: string) =>
    [...stack.sandbox.state.wallets.values()].filter((wallet) => wallet.externalUserId === label);

  test('an end user whose process was terminated keeps its one wallet: ensureDepositWallet answers it, nothing is created', async () => {
    const endUserId = `closed-${randomUUID().slice(0, 8)}`;
    const wallet = await stack.ramp.ensureDepositWallet(endUserId);
    await stack.client.workflow.getHandle(endUserWorkflowId(endUserId)).terminate('closed by an operator');

    await expect(stack.ramp.ensureDepositWallet(endUserId)).resolves.toEqual(wallet);
    expect(await runsOf(endUserWorkflowId(endUserId))).toEqual(['TERMINATED']);
    expect(walletsLabelled(`end-user:${endUserId}`)).toHaveLength(1);
  });

  test('an end user closed before its wallet existed is refused with ProcessEndedError, and no wallet is created', async () => {
    const endUserId = `closed-early-${randomUUID().slice(0, 8)}`;
    const handle = await stack.client.workflow.start(endUserWorkflow, {
      workflowId: endUserWorkflowId(endUserId),
      taskQueue: stack.worker.taskQueue,
      args: [{ endUserId, endUserSearchValue: endUserId, timings: stack.timings }],
    });
    await handle.terminate('closed by an operator');

    await expect(stack.ramp.ensureDepositWallet(endUserId)).rejects.toMatchObject({
      name: 'ProcessEndedError',
      workflowId: endUserWorkflowId(endUserId),
    });
    const api = createApiApp({
      ramp: stack.ramp,
      idempotency: ledgerIdempotency(stack.database.db),
      apiKey: new SecretString('one-run-api-key-8c1f'),
      logger: pino({ level: 'silent' }),
    });
    const answer = await request(api)
      .post(`/v1/end-users/${endUserId}/deposit-wallet`)
      .set('Authorization', 'Bearer one-run-api-key-8c1f');
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('process_ended');
    expect(await runsOf(endUserWorkflowId(endUserId))).toEqual(['TERMINATED']);
    expect(walletsLabelled(`end-user:${endUserId}`)).toHaveLength(0);
  });

  test('a terminated account setup is not started again (it would create a second master and gas wallet)', async () => {
    const first = await stack.ramp.setupAccount();
    const masters = walletsLabelled(first.masterWallet.externalUserId).length;
    const workflowId = accountSetupWorkflowId;
    await stack.client.workflow.getHandle(workflowId).terminate('closed by an operator');

    await expect(stack.ramp.setupAccount()).rejects.toMatchObject({ name: 'ProcessEndedError', workflowId });
    expect(await runsOf(workflowId)).toEqual(['TERMINATED']);
    expect(walletsLabelled(first.masterWallet.externalUserId)).toHaveLength(masters);
  });
});
