/**
 * The typed client's lifecycle calls without Temporal: the ramp filter is checked before any query is built, page
 * tokens only work with the filter that produced them, and startOnRamp refuses another end user while the on-ramp
 * runs and answers the process as it is for the same one.
 */
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ClientContext } from '../../../src/client/context';
import {
  ClaimWindowClosedError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
} from '../../../src/client/errors';
import { startOnRamp } from '../../../src/client/on-ramp';
import { listRamps, parseRampListFilter } from '../../../src/client/ramp-list';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';

function context(temporal: unknown): ClientContext {
  return {
    temporal: temporal as Client,
    taskQueue: 'q',
    timings: {} as ClientContext['timings'],
    processIds: { accountSetupWorkflowId: 'account-setup', alertsWorkflowId: 'ops/alerts' },
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
  function visibility() {
    const listWorkflowExecutions = jest
      .fn()
      .mockResolvedValue({ executions: [], nextPageToken: Buffer.from('temporal-page-2') });
    return {
      listWorkflowExecutions,
      ctx: context({ options: { namespace: 'ns' }, workflowService: { listWorkflowExecutions } }),
    };
  }

  test("builds the query from checked values only, and hands back Temporal's token only for the same filter", async () => {
    const { listWorkflowExecutions, ctx } = visibility();
    const filter = {
      endUserId: 'u1',
      direction: 'on-ramp' as const,
      status: 'settled',
      closedAfter: '2026-01-01T00:00:00Z',
      limit: 5,
    };
    const page = await listRamps(ctx, filter);
    expect(listWorkflowExecutions).toHaveBeenCalledWith({
      namespace: 'ns',
      query:
        "RampDirection = 'on-ramp' AND RampEndUserId IN ('u1') AND RampStatus = 'settled' AND CloseTime > '2026-01-01T00:00:00.000Z'",
      pageSize: 5,
    });
    expect(page.nextPageToken).toEqual(expect.any(String));
    await listRamps(ctx, { ...filter, pageToken: page.nextPageToken! });
    expect(Buffer.from(listWorkflowExecutions.mock.calls[1][0].nextPageToken as Uint8Array).toString()).toBe(
      'temporal-page-2',
    );
    await expect(
      listRamps(ctx, { ...filter, status: 'failed', pageToken: page.nextPageToken! }),
    ).rejects.toThrow(NotFoundError);
    await expect(listRamps(ctx, { pageToken: 'AAAA' })).rejects.toThrow(NotFoundError);
    await expect(listRamps(ctx, { pageToken: 'not a token' })).rejects.toThrow(InvalidInputError);
    expect(listWorkflowExecutions).toHaveBeenCalledTimes(2);
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

  function temporalAnswering(states: Array<OnRampState | 'not-found'>) {
    const signalWithStart = jest.fn().mockResolvedValue(undefined);
    const query = jest.fn().mockImplementation(() => {
      const next = states.length > 1 ? states.shift()! : states[0]!;
      return next === 'not-found'
        ? Promise.reject(new WorkflowNotFoundError('gone', 'onramp/ord-1', undefined))
        : Promise.resolve(next);
    });
    return { signalWithStart, ctx: context({ workflow: { signalWithStart, getHandle: () => ({ query }) } }) };
  }

  test('a new on-ramp is started and answered as created', async () => {
    const { signalWithStart, ctx } = temporalAnswering(['not-found', state('u1')]);
    await expect(startOnRamp(ctx, 'u1', 'ord-1')).resolves.toMatchObject({
      workflowId: 'onramp/ord-1',
      created: true,
      state: { endUserId: 'u1' },
    });
    expect(signalWithStart).toHaveBeenCalledTimes(1);
  });

  test('the same end user again: the process as it is, nothing sent', async () => {
    const { signalWithStart, ctx } = temporalAnswering([
      state('u1', { quote: { targetAmount: '1', expiresAt: '2030-01-01T00:00:00Z' } }),
    ]);
    const again = await startOnRamp(ctx, 'u1', 'ord-1', {
      quote: { targetAmount: '2', expiresAt: '2030-01-01T00:00:00Z' },
    });
    expect(again).toMatchObject({ created: false, quote: { targetAmount: '1' } });
    expect(signalWithStart).not.toHaveBeenCalled();
  });

  test('another end user while it runs is a conflict, before and after the signal', async () => {
    const running = temporalAnswering([state('u1')]);
    await expect(startOnRamp(running.ctx, 'u2', 'ord-1')).rejects.toThrow(ConflictError);
    expect(running.signalWithStart).not.toHaveBeenCalled();
    // Unattributed when read, but another caller's attribution landed first.
    const raced = temporalAnswering([state(null), state('u1')]);
    await expect(startOnRamp(raced.ctx, 'u2', 'ord-1')).rejects.toThrow(/belongs to another end user/);
  });

  test('an on-ramp that ended without an end user is claimed: not created, claimed, no quote asked for', async () => {
    const ended = state(null, {
      status: 'settled',
      endedAt: '2026-01-01T00:01:00.000Z',
      claimableUntil: '2026-01-08T00:01:00.000Z',
    });
    const { signalWithStart, ctx } = temporalAnswering([
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
    const unclaimed = temporalAnswering([
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
    const old = temporalAnswering([state(null, { status: 'settled', endedAt: '2026-01-01T00:01:00.000Z' })]);
    await expect(startOnRamp(old.ctx, 'u2', 'ord-1')).rejects.toThrow(
      /already ended \(settled\) without an end user/,
    );
  });

  test('an unattributed running on-ramp is attributed (created)', async () => {
    const { signalWithStart, ctx } = temporalAnswering([state(null), state('u2')]);
    await expect(startOnRamp(ctx, 'u2', 'ord-1')).resolves.toMatchObject({ created: true });
    expect(signalWithStart).toHaveBeenCalledTimes(1);
  });
});
