/**
 * Operations on the real dev server + sandbox: a stranded deposit through the incident store's alert path.
 */
import { offRampWorkflowId } from '../../../../src/domain/ids';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  type RampStack,
  sandboxCall,
  useRampStacks,
  waitFor,
} from '../../../helpers/ramp-stack';
import { recordHistory } from '../../../helpers/histories';

describe('operations: alerts', () => {
  const stacks = useRampStacks();

  const resolvedLines = (s: RampStack) =>
    s.logLines().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('RESOLVED '));

  test('a stranded deposit raises through the incident store and resolves when it settles', async () => {
    const stack = await stacks.start({ gasTrx: '0' });
    const s = stack;
    const user = await endUserWithWallet(s);
    const depositId = await depositCrypto(s, user.address);
    await offRampEnded(s, depositId, ['stuck']);
    const incident = await waitFor('the incident', async () =>
      (await s.ramp.listAlerts()).data.find((entry) => entry.depositTransactionId === depositId),
    );
    expect(incident).toMatchObject({
      kind: 'gas-shortfall',
      key: `gas-shortfall/deposit/${depositId}`,
      workflowId: offRampWorkflowId(depositId),
    });
    expect(s.alerts()).toHaveLength(1);

    await sandboxCall(s.sandbox, 'POST', `/sandbox/v1/wallets/${s.gasWalletId}/balances`, {
      asset: 'TRX',
      amount: '1000',
    });
    expect((await offRampEnded(s, depositId)).status).toBe('settled');
    const after = await waitFor('the resolution', async () => {
      const [open, resolved] = await Promise.all([
        s.ramp.listAlerts(),
        s.ramp.listAlerts({ status: 'resolved' }),
      ]);
      return open.data.length === 0 && resolved.data.length === 1 ? resolved.data : undefined;
    });
    expect(after[0]).toMatchObject({ key: `gas-shortfall/deposit/${depositId}` });
    // The notice is logged by the resolving activity once the store has answered it: a moment after the store shows it.
    await waitFor('the RESOLVED notice', () => (resolvedLines(s).length > 0 ? true : undefined));
    expect(resolvedLines(s)).toHaveLength(1);
    expect(s.alerts()).toHaveLength(1);
    await recordHistory(stacks.client, offRampWorkflowId(depositId), 'offramp-stuck-alert-resolved');
  });
});
