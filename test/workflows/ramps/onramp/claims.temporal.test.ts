/**
 * Late claims on the real dev server, with the sandbox over HTTP and the real receiver: an on-ramp whose order events
 * came before any announcement ends without an end user and stays claimable; a startOnRamp (or POST /v1/on-ramps)
 * then claims it, once, for the first end user; after the claim window it closes unclaimed with an incident that a
 * later claim is told about; and a claim made while the worker is SIGKILLed lands once a worker is back.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../../src/api/app';
import { ledgerIdempotency } from '../../../../src/api/idempotency';
import { ClaimWindowClosedError, ConflictError } from '../../../../src/client/errors';
import { onRampWorkflowId } from '../../../../src/domain/ids';
import { SecretString } from '../../../../src/secrets/secret-string';
import type { OnRampState } from '../../../../workflows/ramps/onramp/types';
import { recordHistory } from '../../../helpers/histories';
import { eventsOf } from '../../../helpers/database';
import type { OnRampStart } from '../../../../src/client/on-ramp';
import { startWorkerProcess } from '../../../helpers/killable-worker';
import {
  depositFiat,
  EMAIL,
  PASSCODE,
  type RampStack,
  useRampStacks,
  waitFor,
} from '../../../helpers/ramp-stack';
import { testServer } from '../../../helpers/temporal';

const API_KEY = 'claims-test-api-key-0123456789';

describe('late claims of on-ramps nobody announced (sandbox + receiver + dev server)', () => {
  const stacks = useRampStacks();
  const reference = () => `late-${randomUUID().slice(0, 12)}`;

  /** The on-ramp once it has ended without an end user and waits to be claimed. */
  const claimable = (stack: RampStack, ref: string) =>
    waitFor(`on-ramp ${ref} to wait for a claim`, async () => {
      const state = await stack.ramp.getOnRamp(ref);
      return state.claimableUntil ? state : undefined;
    });

  /** The on-ramp's final state, once it has closed (it starts with the order's first event). */
  async function closed(stack: RampStack, ref: string): Promise<OnRampState> {
    await waitFor(`on-ramp ${ref} to start`, () => stack.ramp.getOnRamp(ref).catch(() => undefined));
    return (await stacks.client.workflow.getHandle(onRampWorkflowId(ref)).result()) as OnRampState;
  }

  const eventTypes = async (stack: RampStack, ref: string) =>
    (await eventsOf(stack.database.db, onRampWorkflowId(ref))).map((record) => record.event.type);

  function api(stack: RampStack) {
    return createApiApp({
      ramp: stack.ramp,
      idempotency: ledgerIdempotency(stack.database.db),
      apiKey: new SecretString(API_KEY),
      logger: pino({ level: 'silent' }),
    });
  }

  test('claimed before it ends, it is simply attributed', async () => {
    // A slower sandbox: the order takes seconds to settle, so the call lands while it runs.
    const stack = await stacks.start({
      timings: { onRampClaimWindowMs: 60_000 },
      sandbox: { timeScale: 0.2 },
    });
    // The order events came first; the client's call attributes the running on-ramp.
    const early = reference();
    await depositFiat(stack, early);
    await waitFor('the early on-ramp to start', () => stack.ramp.getOnRamp(early).catch(() => undefined));
    const attributed = await stack.ramp.startOnRamp('early-user', early);
    expect(attributed).toMatchObject({ created: true, claimed: false });
    const earlyEnd = await closed(stack, early);
    expect(earlyEnd).toMatchObject({ status: 'settled', endUserId: 'early-user' });
    expect(earlyEnd.claimedAt).toBeUndefined();
    expect(await eventTypes(stack, early)).not.toContain('on_ramp.claimed');
  });

  test('claimed after it ended, POST /v1/on-ramps answers 200 with its state and on_ramp.claimed follows', async () => {
    const stack = await stacks.start({ timings: { onRampClaimWindowMs: 60_000 } });
    // Settled unattributed, waiting: the client's backend was down while the user paid.
    const late = reference();
    const { transactionId } = await depositFiat(stack, late);
    const waiting = await claimable(stack, late);
    expect(waiting).toMatchObject({ status: 'settled', endUserId: null, unattributed: true });
    expect(waiting.endedAt).toBeDefined();
    const answer = await request(api(stack))
      .post('/v1/on-ramps')
      .set('Authorization', `Bearer ${API_KEY}`)
      .send({ endUserId: 'late-user', orderReference: late });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      status: 'settled',
      endUserId: 'late-user',
      orderReference: late,
    });
    const end = await closed(stack, late);
    expect(end).toMatchObject({ status: 'settled', endUserId: 'late-user', unattributed: false });
    expect(end.claimedAt).toBeDefined();
    const events = await eventsOf(stack.database.db, onRampWorkflowId(late));
    expect(events.map((record) => record.event.type)).toEqual([
      'on_ramp.created',
      'on_ramp.settled',
      'on_ramp.claimed',
    ]);
    const claimedEvent = events[2]!.event;
    expect(claimedEvent.data).toMatchObject({
      endUserId: 'late-user',
      status: 'settled',
      orderReference: late,
      cryptoAmount: end.cryptoAmount,
      claimedAt: end.claimedAt,
      amounts: { executed: { amountFrom: '1000', amountTo: end.cryptoAmount } },
    });
    expect(end.deposit?.id).toBe(transactionId);
    // The claim reached the search attribute: the end user's ramps list it.
    const listed = await waitFor('the claimed on-ramp in the end user list', async () => {
      const ramps = await stack.ramp.listProcesses({ endUserId: 'late-user' });
      return ramps.length > 0 ? ramps : undefined;
    });
    expect(listed.map((ramp) => ramp.workflowId)).toEqual([onRampWorkflowId(late)]);
    // The same call again answers the ended process as it is.
    await expect(stack.ramp.startOnRamp('late-user', late)).resolves.toMatchObject({
      created: false,
      claimed: false,
    });
    await recordHistory(stacks.client, onRampWorkflowId(late), 'onramp-claimed-after-settled');
  });

  test('two claims for different end users: the first wins, the other is a conflict; one on_ramp.claimed', async () => {
    const stack = await stacks.start({ timings: { onRampClaimWindowMs: 60_000 } });
    const ref = reference();
    await depositFiat(stack, ref);
    await claimable(stack, ref);
    const outcomes = await Promise.allSettled([
      stack.ramp.startOnRamp('first-user', ref),
      stack.ramp.startOnRamp('second-user', ref),
    ]);
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
    expect((lost[0] as PromiseRejectedResult).reason.message).toContain('belongs to another end user');
    const winner = (won[0] as PromiseFulfilledResult<OnRampStart>).value;
    expect(winner.claimed).toBe(true);
    const end = await closed(stack, ref);
    expect(end.endUserId).toBe(winner.state.endUserId);
    expect((await eventTypes(stack, ref)).filter((type) => type === 'on_ramp.claimed')).toHaveLength(1);
    // The loser asking again is still refused.
    const loser = winner.state.endUserId === 'first-user' ? 'second-user' : 'first-user';
    await expect(stack.ramp.startOnRamp(loser, ref)).rejects.toThrow(ConflictError);
  });

  test('the window passes: unclaimed, an incident, and a later claim is a 409 naming that incident', async () => {
    const stack = await stacks.start({ timings: { onRampClaimWindowMs: 1_500 } });
    const ref = reference();
    await depositFiat(stack, ref);
    const end = await closed(stack, ref);
    expect(end).toMatchObject({
      status: 'unclaimed',
      endUserId: null,
      unclaimedIncident: `unclaimed-on-ramp/onramp/${ref}`,
    });
    expect(await eventTypes(stack, ref)).toEqual(['on_ramp.created', 'on_ramp.settled', 'on_ramp.unclaimed']);
    const alerts = await stack.ramp.listAlerts({ kind: 'unclaimed-on-ramp' });
    const incident = alerts.data.find((open) => open.key === `unclaimed-on-ramp/onramp/${ref}`);
    expect(incident).toMatchObject({
      kind: 'unclaimed-on-ramp',
      details: { orderReference: ref, endedAs: 'settled', cryptoAmount: end.cryptoAmount, asset: 'USDT' },
    });
    const error = await stack.ramp.startOnRamp('too-late', ref).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClaimWindowClosedError);
    expect(error).toMatchObject({ incident: `unclaimed-on-ramp/onramp/${ref}` });
    const answer = await request(api(stack))
      .post('/v1/on-ramps')
      .set('Authorization', `Bearer ${API_KEY}`)
      .send({ endUserId: 'too-late', orderReference: ref });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('claim_window_closed');
    expect(answer.body.error.message).toContain(`incident unclaimed-on-ramp/onramp/${ref}`);
    await recordHistory(stacks.client, onRampWorkflowId(ref), 'onramp-unclaimed');
  });

  test('a claim made while the worker is SIGKILLed lands once a worker is back, once', async () => {
    const stack = await stacks.start({ timings: { onRampClaimWindowMs: 60_000 } });
    // The workflows run in a worker process of their own, so that it can really be killed.
    await stack.stopWorker();
    const { address, namespace, bundlePath } = testServer();
    const worker = await startWorkerProcess({
      TEST_TEMPORAL_ADDRESS: address,
      TEST_TEMPORAL_NAMESPACE: namespace,
      TEST_WORKFLOW_BUNDLE: bundlePath,
      TASK_QUEUE: stack.worker.taskQueue,
      DATABASE_URL: stack.database.url,
      OPERATOR_BASE_URL: stack.sandbox.url,
      OPERATOR_EMAIL: EMAIL,
      OPERATOR_PASSCODE: PASSCODE,
    });
    const ref = reference();
    await depositFiat(stack, ref);
    await claimable(stack, ref);
    await worker.kill();
    // The claim's signal is durable once the server has it; its answer waits for a worker to read the state.
    const claim = stack.ramp.startOnRamp('while-down', ref);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await stack.startWorker();
    await expect(claim).resolves.toMatchObject({ claimed: true, state: { endUserId: 'while-down' } });
    const end = await closed(stack, ref);
    expect(end).toMatchObject({ status: 'settled', endUserId: 'while-down' });
    expect((await eventTypes(stack, ref)).filter((type) => type === 'on_ramp.claimed')).toHaveLength(1);
  });
});
