import type { Client } from '@temporalio/client';
import { defaultDataConverter, defaultPayloadConverter } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import {
  createWalletJournaled,
  type JournaledWallet,
} from '../../../activities/wallet-creation/create-wallet';
import { depositWalletLabel } from '../../../src/domain/ids';
import type { OperatorClient } from '../../../src/operator/client';
import { deadlineClockMs } from '../../../src/operator/deadline-clock';
import { deadlinePassed, errorFromFetchFailure, OperatorError } from '../../../src/operator/errors';
import { msToTs } from '../../../src/temporal/sdk-internals';
import type {
  EarlierRequests,
  WalletCreatedSignal,
  WalletCreationRequestSignal,
} from '../../../workflows/wallet-creation/journal';

const RUN_ID = 'abcdef01-2345-6789-abcd-ef0123456789';
const logger = pino({ level: 'silent' });

/** The answer attempt 1 journaled for end user u-1. */
const JOURNALED_BY_ATTEMPT_1 = {
  walletId: 'w-0',
  externalUserId: 'end-user:u-1',
  attempt: 1,
  requestId: 'abcdef01/3#1',
};

/** The request attempt 1 journaled for that answer (each test says how long it may be in flight). */
const REQUEST_OF_ATTEMPT_1: WalletCreationRequestSignal = {
  requestId: 'abcdef01/3#1',
  attempt: 1,
  externalUserId: 'end-user:u-1',
  inFlightForMs: 0,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a creation that runs in full does, in order: log in, journal the request, create, journal the answer. */
const CREATED_IN_FULL = [
  'session',
  'signal walletCreationRequested',
  'createWallet end-user:u-1 networks/ethereum-mainnet,networks/tron-mainnet',
  'signal walletCreated',
];

/** A CreateWallet request in the owner's history: its signal and the server's time of it. */
interface JournaledRequest {
  request: WalletCreationRequestSignal;
  atMs: number;
}

/**
 * A Temporal client whose owner workflow records the signals it is sent and whose history holds `answers`
 * (walletCreated signals) and `requests` (walletCreationRequested). Reads of the history and signals take the delays
 * given; `Infinity` never answers.
 * - `answersAfterMs`: the answers reach the history only that long after the stub is made (an answer on its way);
 * - `taskRunningMs`: the owner has a workflow task running for that long, holding the answers back from its history
 *   (as the server does with signals that arrive during a task) until it ends.
 */
function stubTemporal(
  events: string[],
  journal: {
    answers?: WalletCreatedSignal[];
    requests?: JournaledRequest[];
    /** Requests journaled as not sent (walletCreationNotSent), by ID: after the requests, or before them. */
    notSent?: string[];
    notSentFirst?: boolean;
    answersAfterMs?: number;
    historyMs?: number;
    signalMs?: number;
    /** Signals of these names never answer. */
    hangingSignals?: string[];
    taskRunningMs?: number;
    /** Runs as each signal reaches the server. */
    onSignal?: () => void;
    /** Runs as the history is read. */
    onHistoryRead?: () => void;
  } = {},
) {
  const { answers = [], requests = [], notSent = [], historyMs = 0, signalMs = 0 } = journal;
  // The stub's own schedule runs on real time, whatever a test does to the wall clock.
  const madeAtMs = performance.now();
  const taskRunning = () => performance.now() < madeAtMs + (journal.taskRunningMs ?? 0);
  const answersVisible = () =>
    !taskRunning() && performance.now() >= madeAtMs + (journal.answersAfterMs ?? 0);
  /** `atMs`: when the server took the signal (its event time), before the call returned; on the deadline clock. */
  const signals: { name: string; arg: Record<string, unknown>; atMs: number }[] = [];
  let historyReads = 0;
  const signaled = (signalName: string, arg: object, atMs: number) => ({
    eventTime: msToTs(atMs),
    workflowExecutionSignaledEventAttributes: {
      signalName,
      input: { payloads: [defaultPayloadConverter.toPayload(arg)] },
    },
  });
  const notSentEvents = () =>
    notSent.map((requestId) =>
      signaled('walletCreationNotSent', { requestId, attempt: 1, reason: 'AttemptTooLate' }, Date.now()),
    );
  const history = () => ({
    events: [
      ...(journal.notSentFirst ? notSentEvents() : []),
      ...requests.map(({ request, atMs }) => signaled('walletCreationRequested', request, atMs)),
      ...(journal.notSentFirst ? [] : notSentEvents()),
      ...(answersVisible() ? answers : []).map((answer) => signaled('walletCreated', answer, Date.now())),
    ],
  });
  const temporal = {
    withAbortSignal: (_signal: AbortSignal, call: () => Promise<unknown>) => call(),
    workflow: {
      options: { loadedDataConverter: defaultDataConverter },
      getHandle: (workflowId: string) => ({
        workflowId,
        describe: () =>
          Promise.resolve({
            // PENDING_WORKFLOW_TASK_STATE_STARTED
            raw: { pendingWorkflowTask: taskRunning() ? { state: 2 } : null },
          }),
        fetchHistory: async () => {
          historyReads += 1;
          journal.onHistoryRead?.();
          await sleep(historyMs);
          return history();
        },
        signal: async (definition: { name: string }, arg: Record<string, unknown>) => {
          if (signalMs === Infinity || journal.hangingSignals?.includes(definition.name))
            return new Promise(() => undefined);
          journal.onSignal?.();
          const atMs = deadlineClockMs();
          await sleep(signalMs);
          events.push(`signal ${definition.name}`);
          signals.push({ name: definition.name, arg, atMs });
        },
      }),
    },
  };
  return { temporal: temporal as unknown as Client, signals, historyReads: () => historyReads };
}

/**
 * An operator that records its calls and the deadlines CreateWallet is given. `login` is what its session's login
 * does (succeeds at once by default); its request timeout is 15 s unless given.
 */
function stubOperator(
  events: string[],
  {
    login = () => Promise.resolve(),
    deadlines = [],
    requestTimeoutMs = 15_000,
    createFails,
  }: {
    login?: () => Promise<void>;
    deadlines?: number[];
    requestTimeoutMs?: number;
    /** CreateWallet fails with this error instead of creating. */
    createFails?: () => Error;
  } = {},
) {
  let created = 0;
  const operator = {
    requestTimeoutMs,
    ensureSession: async () => {
      await login();
      events.push('session');
    },
    createWallet: (
      { networks, externalUserId }: { networks: string[]; externalUserId: string },
      { deadlineMs }: { deadlineMs?: number } = {},
    ) => {
      if (deadlineMs !== undefined) deadlines.push(deadlineMs);
      events.push(`createWallet ${externalUserId} ${networks.join(',')}`);
      if (createFails) return Promise.reject(createFails());
      created += 1;
      return Promise.resolve({ id: `w-${created}`, externalUserId });
    },
  };
  return operator as unknown as OperatorClient;
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
/** Attempt `n` of a creation; `serverBehindMs`: how far the server's clock (its timestamps) is behind this one. */
const attempt = (n: number, startToCloseTimeoutMs = 10_000, serverBehindMs = 0) =>
  new MockActivityEnvironment(
    {
      attempt: n,
      activityId: '3',
      startToCloseTimeoutMs,
      currentAttemptScheduledTimestampMs: Date.now() - serverBehindMs,
      workflowExecution: { workflowId: 'end-user/u-1', runId: RUN_ID },
    },
    { logger: quiet },
  );

/** createDepositWallet of end user u-1, run as `environment`'s attempt. */
function createDepositWallet(
  environment: MockActivityEnvironment,
  operator: OperatorClient,
  temporal: Client,
  earlier: EarlierRequests = {},
) {
  return environment.run(() =>
    createWalletJournaled(
      { operator, temporal, logger },
      {
        workflowId: 'end-user/u-1',
        externalUserId: depositWalletLabel('u-1'),
        logFields: { endUserId: 'u-1' },
        earlierRequestsOpenUntilMs: earlier.earlierRequestsOpenUntilMs,
      },
    ),
  );
}

/** Attempt 2 of creating the account's master wallet (journaled in account-setup). */
function retryMasterWallet(events: string[], temporal: Client): Promise<JournaledWallet> {
  return attempt(2).run(() =>
    createWalletJournaled(
      { operator: stubOperator(events), temporal, logger },
      {
        workflowId: 'account-setup',
        externalUserId: 'ramp-orchestrator/master',
        role: 'master',
        logFields: {},
      },
    ),
  );
}

describe('journaled wallet creation', () => {
  test('the request is journaled before CreateWallet is sent, and the answer right after', async () => {
    const events: string[] = [];
    const deadlines: number[] = [];
    const { temporal, signals } = stubTemporal(events);
    const startedAtMs = deadlineClockMs();
    const created = await createDepositWallet(attempt(1), stubOperator(events, { deadlines }), temporal);

    expect(events).toEqual(CREATED_IN_FULL);
    expect(created).toEqual({ walletId: 'w-1', externalUserId: 'end-user:u-1', requestId: 'abcdef01/3#1' });
    expect(signals.map(({ arg }) => arg)).toEqual([
      {
        requestId: 'abcdef01/3#1',
        attempt: 1,
        externalUserId: 'end-user:u-1',
        inFlightForMs: expect.any(Number),
      },
      { walletId: 'w-1', externalUserId: 'end-user:u-1', attempt: 1, requestId: 'abcdef01/3#1' },
    ]);
    // CreateWallet is bounded to 90% of the 10 s attempt, and the request says how long it may be in flight.
    const [deadlineMs] = deadlines;
    expect(deadlineMs! - startedAtMs).toBeGreaterThanOrEqual(9_000);
    expect(deadlineMs! - startedAtMs).toBeLessThanOrEqual(9_000 + (deadlineClockMs() - startedAtMs));
  });

  test("the request's window, counted from the server's time of it, reaches CreateWallet's deadline", async () => {
    const events: string[] = [];
    const deadlines: number[] = [];
    // The journal takes 50 ms to answer after the server took the request: the window must not start after it.
    const { temporal, signals } = stubTemporal(events, { signalMs: 50 });
    await createDepositWallet(attempt(1), stubOperator(events, { deadlines }), temporal);
    const [request] = signals;
    expect(request!.atMs + (request!.arg.inFlightForMs as number)).toBeGreaterThanOrEqual(deadlines[0]!);
  });

  test("in a long attempt CreateWallet is bounded to one request's time, and the request says so", async () => {
    const events: string[] = [];
    const deadlines: number[] = [];
    const { temporal, signals } = stubTemporal(events);
    const startedAtMs = deadlineClockMs();
    await createDepositWallet(attempt(1, 120_000), stubOperator(events, { deadlines }), temporal);
    // The stub operator's request timeout is 15 s; 90% of the attempt would be 108 s.
    expect(deadlines[0]! - startedAtMs).toBeGreaterThanOrEqual(15_000);
    expect(deadlines[0]! - deadlineClockMs()).toBeLessThanOrEqual(15_000);
    expect(signals[0]!.arg.inFlightForMs).toBeLessThanOrEqual(15_000);
  });

  test('a retried attempt returns the answer a previous attempt journaled, creating nothing', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events, { answers: [JOURNALED_BY_ATTEMPT_1] });
    const created = await createDepositWallet(attempt(2), stubOperator(events), temporal);
    expect(created).toEqual({ walletId: 'w-0', externalUserId: 'end-user:u-1', requestId: 'abcdef01/3#1' });
    expect(events).toEqual([]);
  });

  test('a retry waits for a running workflow task of the owner, which holds back the journaled answer', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events, { answers: [JOURNALED_BY_ATTEMPT_1], taskRunningMs: 500 });
    const created = await createDepositWallet(attempt(2), stubOperator(events), temporal);
    expect(created).toMatchObject({ walletId: 'w-0' });
    expect(events).toEqual([]);
  });

  test('a retry whose owner keeps a workflow task running past the journal budget creates nothing', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events, { answers: [JOURNALED_BY_ATTEMPT_1], taskRunningMs: 5_000 });
    await expect(
      createDepositWallet(attempt(2, 1_000), stubOperator(events), temporal),
    ).rejects.toMatchObject({ type: 'JournalUnavailable', nonRetryable: false });
    expect(events).toEqual([]);
  });

  test('a retry waits for a request of an earlier attempt still in flight, and returns its answer', async () => {
    const events: string[] = [];
    // Attempt 1 (timed out, its worker alive) journaled its request 100 ms ago, in flight for 2 s more at most.
    const request = { request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 2_100 }, atMs: Date.now() - 100 };
    const { temporal } = stubTemporal(events, {
      answers: [JOURNALED_BY_ATTEMPT_1],
      requests: [request],
      answersAfterMs: 400,
    });
    const created = await createDepositWallet(attempt(2), stubOperator(events), temporal);
    expect(created).toMatchObject({ walletId: 'w-0' });
    expect(events).toEqual([]);
  });

  test('a retry creates once an earlier request has had its time and the grace after it, without an answer', async () => {
    const events: string[] = [];
    const request = { request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 300 }, atMs: Date.now() };
    const { temporal } = stubTemporal(events, { requests: [request] });
    // Grace: 10% of the 4 s attempt; the wait fits in the journal's budget (40%).
    const created = await createDepositWallet(attempt(2, 4_000), stubOperator(events), temporal);
    expect(Date.now() - request.atMs).toBeGreaterThanOrEqual(700);
    expect(created).toMatchObject({ walletId: 'w-1' });
    expect(events).toEqual(CREATED_IN_FULL);
  });

  test('a long wait looks at the owner less and less often', async () => {
    const events: string[] = [];
    const request = { request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 1_000 }, atMs: Date.now() };
    const { temporal, historyReads } = stubTemporal(events, { requests: [request] });
    // A 10 s attempt: 1 s of grace, looks 200, 400 and then 500 ms apart (5%), so 2 s of waiting take 6 reads at
    // most where looks every 200 ms take 11.
    const created = await createDepositWallet(attempt(2, 10_000), stubOperator(events), temporal);
    expect(Date.now() - request.atMs).toBeGreaterThanOrEqual(2_000);
    expect(created).toMatchObject({ walletId: 'w-1' });
    expect(historyReads()).toBeGreaterThanOrEqual(4);
    expect(historyReads()).toBeLessThanOrEqual(6);
  });

  test('a request in flight for longer than the journal budget fails the retry, creating nothing', async () => {
    const events: string[] = [];
    const request = { request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 60_000 }, atMs: Date.now() };
    const { temporal } = stubTemporal(events, { requests: [request] });
    await expect(
      createDepositWallet(attempt(2, 1_000), stubOperator(events), temporal),
    ).rejects.toMatchObject({
      type: 'RequestMayBeInFlight',
      nonRetryable: false,
    });
    expect(events).toEqual([]);
  });

  test("the wait is counted on the server's clock, not this worker's", async () => {
    const events: string[] = [];
    // The server's clock is a minute behind: by this worker's clock the request's window closed long ago.
    const behindMs = 60_000;
    const request = {
      request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 2_100 },
      atMs: Date.now() - behindMs - 100,
    };
    const { temporal } = stubTemporal(events, {
      answers: [JOURNALED_BY_ATTEMPT_1],
      requests: [request],
      answersAfterMs: 400,
    });
    const created = await createDepositWallet(attempt(2, 10_000, behindMs), stubOperator(events), temporal);
    expect(created).toMatchObject({ walletId: 'w-0' });
    expect(events).toEqual([]);
  });

  test("a wall clock that jumps forward does not close an earlier request's window early", async () => {
    const events: string[] = [];
    // As above: the request may be in flight for 2 s more, and its answer arrives 400 ms from now. The wall clock
    // jumps 3.5 s forward at the first look: counted on it, the window (and its 1 s grace) would have closed, and
    // the retry, with most of its 10 s attempt left, would create beside the request.
    const request = { request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 2_100 }, atMs: Date.now() - 100 };
    const wallClock = Date.now.bind(Date);
    const { temporal } = stubTemporal(events, {
      answers: [JOURNALED_BY_ATTEMPT_1],
      requests: [request],
      answersAfterMs: 400,
      onHistoryRead: () => jest.spyOn(Date, 'now').mockImplementation(() => wallClock() + 3_500),
    });
    try {
      const created = await createDepositWallet(attempt(2), stubOperator(events), temporal);
      expect(created).toMatchObject({ walletId: 'w-0' });
    } finally {
      jest.restoreAllMocks();
    }
    expect(events).toEqual([]);
  });

  test("a new activity's first attempt waits for an earlier activity's request its owner names", async () => {
    const events: string[] = [];
    // The earlier request is in a history this run does not hold; its owner passes its window in the input.
    const { temporal } = stubTemporal(events, { answers: [JOURNALED_BY_ATTEMPT_1], answersAfterMs: 400 });
    const created = await createDepositWallet(attempt(1), stubOperator(events), temporal, {
      earlierRequestsOpenUntilMs: Date.now() + 2_000,
    });
    expect(created).toMatchObject({ walletId: 'w-0' });
    expect(events).toEqual([]);
  });

  test('CreateWallet is not sent with less than half the time it could have', async () => {
    const events: string[] = [];
    // One request timeout (1 s) from before the journal write, which takes 600 ms of it.
    const { temporal, signals } = stubTemporal(events, { signalMs: 600 });
    await expect(
      createDepositWallet(attempt(1), stubOperator(events, { requestTimeoutMs: 1_000 }), temporal),
    ).rejects.toMatchObject({ type: 'AttemptTooLate', nonRetryable: false });
    expect(events).toEqual(['session', 'signal walletCreationRequested', 'signal walletCreationNotSent']);
    // The request is journaled as never sent: no retry waits for it, and it is not reported as a possible wallet.
    expect(signals[1]!.arg).toEqual({
      requestId: signals[0]!.arg.requestId,
      attempt: 1,
      externalUserId: 'end-user:u-1',
      reason: 'AttemptTooLate',
    });
  });

  test('a wall clock set back during the journal write gives CreateWallet no more time', async () => {
    const events: string[] = [];
    const wallClock = Date.now.bind(Date);
    // As in the test above, but the wall clock is set back a minute while the request is journaled: counted on it,
    // the attempt would see a minute more and send.
    const { temporal } = stubTemporal(events, {
      signalMs: 600,
      onSignal: () => jest.spyOn(Date, 'now').mockImplementation(() => wallClock() - 60_000),
    });
    try {
      await expect(
        createDepositWallet(attempt(1), stubOperator(events, { requestTimeoutMs: 1_000 }), temporal),
      ).rejects.toMatchObject({ type: 'AttemptTooLate', nonRetryable: false });
    } finally {
      jest.restoreAllMocks();
    }
    expect(events).toEqual(['session', 'signal walletCreationRequested', 'signal walletCreationNotSent']);
  });

  test("an account wallet's retry looks only at answers of its own role", async () => {
    const events: string[] = [];
    const gas = {
      walletId: 'w-gas',
      externalUserId: 'ramp-orchestrator/gas',
      attempt: 1,
      role: 'gas' as const,
      requestId: 'abcdef01/3#1',
    };
    const { temporal, signals } = stubTemporal(events, { answers: [gas] });
    const created = await retryMasterWallet(events, temporal);
    expect(created.walletId).toBe('w-1');
    expect(signals.map(({ arg }) => arg.role)).toEqual(['master', 'master']);
  });

  test('a journal that does not answer in time fails the attempt before anything is created', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events, { signalMs: Infinity });
    await expect(createDepositWallet(attempt(1, 100), stubOperator(events), temporal)).rejects.toMatchObject({
      type: 'JournalUnavailable',
      nonRetryable: false,
    });
    expect(events).toEqual(['session']);
  });

  test('a request whose journal write did not answer in time is journaled as not sent, as it may still land', async () => {
    const events: string[] = [];
    const { temporal, signals } = stubTemporal(events, { hangingSignals: ['walletCreationRequested'] });
    await expect(createDepositWallet(attempt(1, 500), stubOperator(events), temporal)).rejects.toMatchObject({
      type: 'JournalUnavailable',
    });
    expect(events).toEqual(['session', 'signal walletCreationNotSent']);
    expect(signals[0]!.arg).toMatchObject({
      requestId: 'abcdef01/3#1',
      attempt: 1,
      reason: 'JournalUnavailable',
    });
  });

  test("an account wallet's retry does not wait for a request of another role", async () => {
    const events: string[] = [];
    const gasRequest = {
      request: {
        ...REQUEST_OF_ATTEMPT_1,
        externalUserId: 'ramp-orchestrator/gas',
        role: 'gas' as const,
        inFlightForMs: 60_000,
      },
      atMs: Date.now(),
    };
    const { temporal } = stubTemporal(events, { requests: [gasRequest] });
    const created = await retryMasterWallet(events, temporal);
    expect(created.walletId).toBe('w-1');
  });

  test('journal calls that used up half the attempt leave CreateWallet to the next attempt', async () => {
    const events: string[] = [];
    // Each call stays within its own budget (40% of 200 ms); together they leave less than half the attempt.
    const { temporal } = stubTemporal(events, { historyMs: 60, signalMs: 60 });
    await expect(createDepositWallet(attempt(2, 200), stubOperator(events), temporal)).rejects.toMatchObject({
      type: 'AttemptTooLate',
    });
    expect(events).toEqual(['session', 'signal walletCreationRequested', 'signal walletCreationNotSent']);
  });

  test('a CreateWallet that was never carried out (deadline passed in a re-login) is journaled as not sent', async () => {
    const events: string[] = [];
    const { temporal, signals } = stubTemporal(events);
    const operator = stubOperator(events, { createFails: () => deadlinePassed('createWallet') });
    await expect(createDepositWallet(attempt(1), operator, temporal)).rejects.toMatchObject({
      type: 'OperatorUnavailable',
      nonRetryable: false,
    });
    expect(events).toEqual([
      'session',
      'signal walletCreationRequested',
      'createWallet end-user:u-1 networks/ethereum-mainnet,networks/tron-mainnet',
      'signal walletCreationNotSent',
    ]);
    expect(signals[1]!.arg).toMatchObject({
      requestId: signals[0]!.arg.requestId,
      reason: 'createWallet: deadline_passed',
    });
  });

  test('a CreateWallet that may have been carried out (timed out) stays on record as possibly sent', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events);
    const timedOut = () => errorFromFetchFailure('createWallet', { name: 'TimeoutError' }, 15_000);
    await expect(
      createDepositWallet(attempt(1), stubOperator(events, { createFails: timedOut }), temporal),
    ).rejects.toMatchObject({ type: 'OperatorUnavailable' });
    expect(events).toEqual([
      'session',
      'signal walletCreationRequested',
      'createWallet end-user:u-1 networks/ethereum-mainnet,networks/tron-mainnet',
    ]);
  });

  test.each([
    ['after it', false],
    ['before it (the two signals overtook each other)', true],
  ])('a retry does not wait for a request journaled as not sent, %s', async (_order, notSentFirst) => {
    const events: string[] = [];
    // As in "a request in flight for longer than the journal budget", which fails the retry, but never sent.
    const request = { request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 60_000 }, atMs: Date.now() };
    const { temporal } = stubTemporal(events, {
      requests: [request],
      notSent: [request.request.requestId],
      notSentFirst,
    });
    const created = await createDepositWallet(attempt(2, 1_000), stubOperator(events), temporal);
    expect(created).toMatchObject({ walletId: 'w-1' });
    expect(events).toEqual(CREATED_IN_FULL);
  });

  test('a request journaled as not sent does not hide another request that may be in flight', async () => {
    const events: string[] = [];
    const notSent = { request: { ...REQUEST_OF_ATTEMPT_1, inFlightForMs: 60_000 }, atMs: Date.now() };
    const inFlight = {
      request: { ...REQUEST_OF_ATTEMPT_1, requestId: 'abcdef01/3#2', attempt: 2, inFlightForMs: 60_000 },
      atMs: Date.now(),
    };
    const { temporal } = stubTemporal(events, {
      requests: [notSent, inFlight],
      notSent: [notSent.request.requestId],
    });
    await expect(
      createDepositWallet(attempt(3, 1_000), stubOperator(events), temporal),
    ).rejects.toMatchObject({ type: 'RequestMayBeInFlight' });
    expect(events).toEqual([]);
  });

  test('the session is made sure of before the request is journaled: a failed login leaves nothing on record', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events);
    const loginFails = () =>
      Promise.reject(
        new OperatorError('operator authenticate failed with HTTP 503', {
          operation: 'authenticate',
          code: 'http_503',
          retryable: true,
          status: 503,
        }),
      );
    await expect(
      createDepositWallet(attempt(1), stubOperator(events, { login: loginFails }), temporal),
    ).rejects.toMatchObject({ type: 'OperatorUnavailable', nonRetryable: false });
    expect(events).toEqual([]);
  });

  test('a login that uses up half the attempt leaves the request unjournaled and CreateWallet to the next attempt', async () => {
    const events: string[] = [];
    const { temporal } = stubTemporal(events);
    const slowLogin = async () => {
      await sleep(120);
    };
    await expect(
      createDepositWallet(attempt(1, 200), stubOperator(events, { login: slowLogin }), temporal),
    ).rejects.toMatchObject({ type: 'AttemptTooLate' });
    expect(events).toEqual(['session']);
  });
});
