/**
 * The settlement statement on the real dev server with the sandbox over HTTP: its rows, booked in the ledger as each
 * ramp ends, against the sandbox's own records (orders, transactions, gas fees), its totals against its rows, the
 * `reconciled` column from reconciliation's read of the operator (unchecked, matches, then differs once the
 * operator's record changes), and the same statement over GET /v1/statement in JSON and CSV.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { ledgerIdempotency } from '../../../src/api/idempotency';
import type { StatementRow, StatementTotal } from '../../../src/client/statement';
import { compareDecimals } from '../../../src/domain/decimal';
import { offRampWorkflowId, onRampWorkflowId } from '../../../src/domain/ids';
import { SecretString } from '../../../src/secrets/secret-string';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import type { reconcileWorkflow } from '../../../workflows/operations/reconcile/workflow';
import { eventsOf } from '../../helpers/database';
import {
  depositCrypto,
  depositFiat,
  endUserWithWallet,
  type RampStack,
  useRampStacks,
  waitFor,
} from '../../helpers/ramp-stack';

const API_KEY = 'statement-test-api-key-0123456789';

describe('settlement statement (sandbox + receiver + dev server)', () => {
  const stacks = useRampStacks();

  async function closedState<T>(workflowId: string): Promise<T> {
    await waitFor(`${workflowId} to start`, () =>
      stacks.client.workflow
        .getHandle(workflowId)
        .describe()
        .catch(() => undefined),
    );
    return (await stacks.client.workflow.getHandle(workflowId).result()) as T;
  }

  async function read(stack: RampStack, from: string, to: string) {
    const rows: StatementRow[] = [];
    let totals: StatementTotal[] = [];
    let rowCount = -1;
    for await (const item of stack.ramp.statement({ from, to })) {
      if (item.kind === 'row') rows.push(item.row);
      else {
        totals = item.totals;
        rowCount = item.rows;
      }
    }
    return { rows, totals, rowCount };
  }

  /** A reconciliation run on the stack's worker: it reads the booked rows again at the operator. */
  async function reconcile(stack: RampStack) {
    await stacks.client.workflow.execute<typeof reconcileWorkflow>('reconcileWorkflow', {
      workflowId: `reconcile-${randomUUID()}`,
      taskQueue: stack.worker.taskQueue,
      args: [{ timings: stack.timings }],
    });
  }

  test('rows and totals against the sandbox records; reconciled from the operator, read again', async () => {
    const stack = await stacks.start({ timings: { onRampClaimWindowMs: 1_000 } });
    const from = new Date(Date.now() - 1_000).toISOString();
    const user = await endUserWithWallet(stack);
    const depositId = await depositCrypto(stack, user.address, '50');
    const settledRef = `st-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp(user.endUserId, settledRef);
    await depositFiat(stack, settledRef);
    const expiredRef = `st-${randomUUID().slice(0, 12)}`;
    await stack.ramp.startOnRamp(user.endUserId, expiredRef);
    await depositFiat(stack, expiredRef, 'expired');
    const unclaimedRef = `st-${randomUUID().slice(0, 12)}`;
    await depositFiat(stack, unclaimedRef);

    const off = await closedState<OffRampState>(offRampWorkflowId(depositId));
    const on = await closedState<OnRampState>(onRampWorkflowId(settledRef));
    const expired = await closedState<OnRampState>(onRampWorkflowId(expiredRef));
    const unclaimed = await closedState<OnRampState>(onRampWorkflowId(unclaimedRef));
    expect([off.status, on.status, expired.status, unclaimed.status]).toEqual([
      'settled',
      'settled',
      'expired',
      'unclaimed',
    ]);
    const ours = [off, on, expired, unclaimed].map((state, index) =>
      index === 0 ? offRampWorkflowId(depositId) : onRampWorkflowId((state as OnRampState).orderReference),
    );
    const to = new Date(Date.now() + 60_000).toISOString();
    // Booked when each ramp ended: all four are in the ledger as their workflows close, not checked yet.
    const booked = await read(stack, from, to);
    expect(ours.map((id) => booked.rows.find((row) => row.workflowId === id)?.reconciled)).toEqual([
      'unchecked',
      'unchecked',
      'unchecked',
      'unchecked',
    ]);
    await reconcile(stack);
    const statement = await read(stack, from, to);
    const row = (workflowId: string) => statement.rows.find((entry) => entry.workflowId === workflowId)!;

    // The off-ramp against the sandbox's deposit, order and gas fees.
    const sandbox = stack.sandbox.state;
    const offOrder = sandbox.orders.get(off.orderId ?? '')!;
    const topUpFee = sandbox.transactions.get(off.gasTopUp?.id ?? '')?.fee;
    const sweepFee = sandbox.transactions.get(off.sweep?.id ?? '')?.fee;
    expect(row(ours[0]!)).toMatchObject({
      direction: 'off-ramp',
      status: 'settled',
      endUserId: user.endUserId,
      depositTransactionId: depositId,
      orderId: offOrder.id,
      assetFrom: 'USDT',
      amountFrom: sandbox.transactions.get(depositId)!.amount,
      assetTo: 'MXN',
      amountTo: offOrder.amountTo,
      gasAsset: 'TRX',
      webhookIds: (await eventsOf(stack.database.db, ours[0]!)).map((record) => record.webhookId),
      reconciled: 'matches',
    });
    const gasPaid = [topUpFee, sweepFee].flatMap((fee) => (fee ? [Number(fee.amount)] : []));
    expect(gasPaid.length).toBeGreaterThan(0);
    // The statement's gas is what the sandbox charged for the top-up and the sweep.
    expect(Number(row(ours[0]!).gasAmount)).toBeCloseTo(
      gasPaid.reduce((sum, amount) => sum + amount, 0),
      9,
    );

    const onOrder = sandbox.orders.get(on.order?.id ?? '')!;
    expect(row(ours[1]!)).toMatchObject({
      direction: 'on-ramp',
      status: 'settled',
      orderReference: settledRef,
      orderId: onOrder.id,
      depositTransactionId: onOrder.transactionId,
      assetFrom: 'MXN',
      amountFrom: onOrder.amountFrom,
      assetTo: 'USDT',
      amountTo: onOrder.amountTo,
      reconciled: 'matches',
    });
    expect(row(ours[2]!)).toMatchObject({ status: 'expired', amountTo: null, reconciled: 'matches' });
    expect(row(ours[3]!)).toMatchObject({ status: 'unclaimed', endUserId: null, reconciled: 'matches' });

    // Totals against rows: every row of the period counted once per asset it moved, every amount summed.
    expect(statement.rowCount).toBe(statement.rows.length);
    for (const total of statement.totals) {
      const rows = statement.rows.filter(
        (entry) =>
          entry.status === total.status &&
          [entry.assetFrom, entry.assetTo, entry.gasAsset].includes(total.asset),
      );
      expect(total.ramps).toBe(rows.length);
      const sum = (pick: (entry: StatementRow) => string | null) =>
        rows.reduce((acc, entry) => acc + Number(pick(entry) ?? 0), 0);
      const received = sum((entry) => (entry.assetFrom === total.asset ? entry.amountFrom : null));
      expect(Number(total.received)).toBeCloseTo(received, 6);
    }
    const settledUsdt = statement.totals.find(
      (total) => total.status === 'settled' && total.asset === 'USDT',
    );
    expect(compareDecimals(settledUsdt!.delivered, onOrder.amountTo)).toBeGreaterThanOrEqual(0);

    // The operator's record changes: the next reconciliation finds it, and the statement says what the operator says.
    onOrder.amountTo = '1.000000';
    await reconcile(stack);
    const again = await read(stack, from, to);
    const differs = again.rows.find((entry) => entry.workflowId === ours[1])!;
    expect(differs.reconciled).toBe('differs');
    expect(differs.reconciliation).toContain(
      `order ${onOrder.id} amountTo 1.000000 (booked ${on.order?.amountTo})`,
    );

    // The same statement over HTTP.
    const app = createApiApp({
      ramp: stack.ramp,
      idempotency: ledgerIdempotency(stack.database.db),
      apiKey: new SecretString(API_KEY),
      logger: pino({ level: 'silent' }),
    });
    const json = await request(app)
      .get('/v1/statement')
      .query({ from, to, format: 'json' })
      .set('Authorization', `Bearer ${API_KEY}`);
    expect(json.status).toBe(200);
    const body = json.body as { data: { rows: StatementRow[]; totals: StatementTotal[]; rowCount: number } };
    expect(body.data.rowCount).toBe(body.data.rows.length);
    expect(body.data.rows.find((entry) => entry.workflowId === ours[0])).toMatchObject({
      reconciled: 'matches',
    });
    const csv = await request(app)
      .get('/v1/statement')
      .query({ from, to, format: 'csv' })
      .set('Authorization', `Bearer ${API_KEY}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.split('\r\n').filter((line) => line !== '');
    expect(lines.filter((line) => line.startsWith('ramp,')).length).toBe(body.data.rows.length);
    expect(lines.some((line) => line.startsWith(`ramp,${ours[1]},on-ramp,settled,`))).toBe(true);
  });
});
