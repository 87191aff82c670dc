/**
 * The typed client's lifecycle calls against a real ledger, without Temporal: the ramp filter is checked before any
 * query is built, page tokens only work with the filter that produced them, and startOnRamp refuses another end user
 * while the on-ramp runs and answers the on-ramp as the ledger holds it for the same one. Temporal is a stub whose
 * signal-with-start writes what the on-ramp would record.
 */
import type { Client } from '@temporalio/client';
import type { ClientContext } from '../../../src/client/context';
import {
  ClaimWindowClosedError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
} from '../../../src/client/errors';
import { startOnRamp } from '../../../src/client/on-ramp';
import { listRamps, parseRampListFilter } from '../../../src/client/ramp-list';
import { writeRamp } from '../../../src/ledger/ramps';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';

let database: TestDatabase;
beforeEach(async () => {
  database = await freshTestDatabase();
});
afterEach(async () => {
  await database.close();
});

let revision = 0;
/** Writes an on-ramp's state as its process would record it. */
const record = (state: OnRampState) =>
  writeRamp(database.db, {
    ramp: { direction: 'on-ramp', workflowId: `onramp/${state.orderReference}`, state },
    revision: (revision += 1),
    raised: [],
    retryForMs: 0,
    at: new Date().toISOString(),
  });

function context(temporal: unknown): ClientContext {
  return {
    temporal: temporal as Client,
    ledger: database.db,
    taskQueue: 'q',
    timings: {} as ClientContext['timings'],
    processIds: { accountSetupWorkflowId: 'account-setup' },
    now: () => Date.parse('2026-01-01T00:00:00.000Z'),
    encryption: undefined,
  };
}

describe('parseRampListFilter', () => {
  test('checks every value and names each problem', () => {
    expect(() =>
      parseRampListFilter({
        direction: 'up' as never,
        status: "x' OR '1'='1",
        closedAfter: 'yesterday',
        limit: 0,
        pageToken: "';",
        endUserId: 'a b',
      }),
    ).toThrow(InvalidInputError);
    try {
      parseRampListFilter({
        direction: 'up' as never,
        status: 'lost',
        closedAfter: 'yesterday',
        limit: 101,
        pageToken: "';",
        endUserId: 'a b',
      });
    } catch (error) {
      expect((error as InvalidInputError).issues.map((issue) => issue.split(':')[0])).toEqual([
        'direction',
        'status',
        'closedAfter',
        'limit',
        'pageToken',
        'end user ID',
      ]);
    }
  });

  test('normalises closedAfter and defaults the limit to 20', () => {
    expect(parseRampListFilter({ closedAfter: '2026-01-01T01:00:00+01:00', status: 'settled' })).toEqual({
      closedAfter: '2026-01-01T00:00:00.000Z',
      status: 'settled',
      limit: 20,
    });
  });
});

describe('listRamps', () => {
  test('filters by checked values, pages newest first, and takes a token only with its own filter', async () => {
    const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
    for (let minute = 0; minute < 5; minute += 1)
      await record({
        orderReference: `ord-${minute}`,
        status: minute % 2 === 0 ? 'settled' : 'awaiting-order',
        step: 'step',
        endUserId: 'u1',
        unattributed: false,
        eventsApplied: 0,
        duplicates: 0,
        polls: 0,
        startedAt: at(minute),
        ...(minute % 2 === 0 ? { endedAt: at(minute + 1) } : {}),
        outcomes: { sequence: 0, events: [] },
      });
    const ctx = context({});
    const filter = { endUserId: 'u1', status: 'settled', limit: 2 };
    const first = await listRamps(ctx, filter);
    expect(first.data.map((ramp) => ramp.orderReference)).toEqual(['ord-4', 'ord-2']);
    expect(first.data[0]).toMatchObject({ direction: 'on-ramp', running: false, closeTime: at(5) });
    const second = await listRamps(ctx, { ...filter, pageToken: first.nextPageToken! });
    expect(second).toEqual({
      data: [expect.objectContaining({ orderReference: 'ord-0' })],
      nextPageToken: null,
    });
    const closedLately = await listRamps(ctx, { closedAfter: at(2) });
    expect(closedLately.data.map((ramp) => ramp.orderReference)).toEqual(['ord-4', 'ord-2']);
    await expect(
      listRamps(ctx, { ...filter, status: 'failed', pageToken: first.nextPageToken! }),
    ).rejects.toThrow(NotFoundError);
    await expect(listRamps(ctx, { pageToken: 'AAAA' })).rejects.toThrow(NotFoundError);
    await expect(listRamps(ctx, { pageToken: 'not a token' })).rejects.toThrow(InvalidInputError);
  });
});

describe('startOnRamp', () => {
  const state = (endUserId: string | null, extra: Partial<OnRampState> = {}): OnRampState => ({
    orderReference: 'ord-1',
    status: 'awaiting-order',
    step: 'Waiting for the order',
    endUserId,
    unattributed: endUserId === null,
    eventsApplied: 0,
    duplicates: 0,
    polls: 0,
    startedAt: '2026-01-01T00:00:00.000Z',
    outcomes: { sequence: 0, events: [] },
    ...extra,
  });

  /** The ledger holds the first state (none for 'not-found'); the signal makes the on-ramp record the second. */
  async function temporalAnswering(states: Array<OnRampState | 'not-found'>) {
    const [before, after] = states;
    if (before && before !== 'not-found') await record(before);
    const signalWithStart = jest.fn().mockImplementation(async () => {
      if (after && after !== 'not-found') await record(after);
    });
    return { signalWithStart, ctx: context({ workflow: { signalWithStart } }) };
  }

  test('a new on-ramp is started and answered as created', async () => {
    const { signalWithStart, ctx } = await temporalAnswering(['not-found', state('u1')]);
    await expect(startOnRamp(ctx, 'u1', 'ord-1')).resolves.toMatchObject({
      workflowId: 'onramp/ord-1',
      created: true,
      state: { endUserId: 'u1' },
    });
    expect(signalWithStart).toHaveBeenCalledTimes(1);
  });

  test('the same end user again: the process as it is, nothing sent', async () => {
    const { signalWithStart, ctx } = await temporalAnswering([
      state('u1', { quote: { targetAmount: '1', expiresAt: '2030-01-01T00:00:00Z' } }),
    ]);
    const again = await startOnRamp(ctx, 'u1', 'ord-1', {
      quote: { targetAmount: '2', expiresAt: '2030-01-01T00:00:00Z' },
    });
    expect(again).toMatchObject({ created: false, quote: { targetAmount: '1' } });
    expect(signalWithStart).not.toHaveBeenCalled();
  });

  test('another end user while it runs is a conflict, before and after the signal', async () => {
    const running = await temporalAnswering([state('u1')]);
    await expect(startOnRamp(running.ctx, 'u2', 'ord-1')).rejects.toThrow(ConflictError);
    expect(running.signalWithStart).not.toHaveBeenCalled();
    // Unattributed when read, but another caller's attribution landed first.
    const raced = await temporalAnswering([state(null), state('u1')]);
    await expect(startOnRamp(raced.ctx, 'u2', 'ord-1')).rejects.toThrow(/belongs to another end user/);
  });

  test('an on-ramp that ended without an end user is claimed: not created, claimed, no quote asked for', async () => {
    const ended = state(null, {
      status: 'settled',
      endedAt: '2026-01-01T00:01:00.000Z',
      claimableUntil: '2026-01-08T00:01:00.000Z',
    });
    const { signalWithStart, ctx } = await temporalAnswering([
      ended,
      { ...ended, endUserId: 'u2', claimedAt: '2026-01-02T00:00:00.000Z' },
    ]);
    await expect(
      startOnRamp(ctx, 'u2', 'ord-1', { quote: { targetAmount: '1', expiresAt: '2030-01-01T00:00:00Z' } }),
    ).resolves.toMatchObject({ created: false, claimed: true, state: { endUserId: 'u2' } });
    expect(signalWithStart).toHaveBeenCalledTimes(1);
    const signalled = (signalWithStart.mock.calls[0] as [string, { signalArgs: unknown[] }])[1].signalArgs;
    expect(signalled).toEqual([{ endUserId: 'u2', endUserSearchValue: 'u2' }]);
  });

  test('one that closed unclaimed is a ClaimWindowClosedError naming its incident; a 1.0 one a conflict', async () => {
    const unclaimed = await temporalAnswering([
      state(null, {
        status: 'unclaimed',
        endedAt: '2026-01-01T00:01:00.000Z',
        claimableUntil: '2026-01-08T00:01:00.000Z',
        unclaimedIncident: 'unclaimed-on-ramp/onramp/ord-1',
      }),
    ]);
    const error = await startOnRamp(unclaimed.ctx, 'u2', 'ord-1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClaimWindowClosedError);
    expect(error).toMatchObject({ incident: 'unclaimed-on-ramp/onramp/ord-1' });
    expect((error as Error).message).toContain('incident unclaimed-on-ramp/onramp/ord-1');
    expect(unclaimed.signalWithStart).not.toHaveBeenCalled();
    const old = await temporalAnswering([
      state(null, { status: 'settled', endedAt: '2026-01-01T00:01:00.000Z' }),
    ]);
    await expect(startOnRamp(old.ctx, 'u2', 'ord-1')).rejects.toThrow(
      /already ended \(settled\) without an end user/,
    );
  });

  test('an unattributed running on-ramp is attributed (created)', async () => {
    const { signalWithStart, ctx } = await temporalAnswering([state(null), state('u2')]);
    await expect(startOnRamp(ctx, 'u2', 'ord-1')).resolves.toMatchObject({ created: true });
    expect(signalWithStart).toHaveBeenCalledTimes(1);
  });
});
