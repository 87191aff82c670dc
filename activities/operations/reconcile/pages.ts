/**
 * One page of a reconciliation pass: up to a page of items after the pass's cursor, checked OPERATOR_READS_IN_PARALLEL
 * at a time, each only while the run's budget of operator calls still covers the most it can make. After each item
 * the page heartbeats how far it has got (the last item of an unbroken run of finished ones, and what it has counted),
 * so a retry of the activity, after a worker was killed say, goes on from there rather than from the page's start.
 * An attempt takes no new item once half its time is gone: a slow operator makes pages shorter, not attempts fail.
 */
import { Context } from '@temporalio/activity';
import { isDatabaseUnavailable } from '../../../src/database/errors';
import { meterOperatorCalls } from '../../../src/operator/call-meter';
import { addFound } from '../../../workflows/operations/reconcile/progress';
import type {
  PageCursor,
  PageResult,
  ReconcileFinding,
  ReconcileFindingKind,
} from '../../../workflows/operations/reconcile/types';

/**
 * Items checked at once. At 200 ms an operator call that is 80 calls a second: an hour's budget in under eight minutes,
 * a page in a few seconds. More would only crowd the calls of the ramps themselves.
 */
export const OPERATOR_READS_IN_PARALLEL = 16;

/**
 * Items per page: a few seconds of work against a slow operator, well within one activity attempt, and the most a
 * worker killed mid-page makes the next attempt read again.
 */
export const PAGE_SIZE = 100;

type Found = Partial<Record<ReconcileFindingKind, number>>;

/** What a page heartbeats, and a retry of it goes on from. */
export interface PageHeartbeat {
  after: PageCursor | null;
  checked: number;
  calls: number;
  found: Found;
}

export interface PageWork<Item> {
  after: PageCursor | null;
  pageSize: number;
  /** Operator calls the run may still make. */
  budgetLeft: number;
  /** The most operator calls one item can make: an item starts only while the budget covers it. */
  callsAtMost: number;
  load(after: PageCursor | null, limit: number): Promise<Item[]>;
  cursorOf(item: Item): PageCursor;
  check(item: Item): Promise<ReconcileFinding[]>;
  /** An item that could not be checked (the operator or its process did not answer): skipped, reported. */
  unreadable(item: Item, error: unknown): ReconcileFinding;
  /** Records an item's findings; answers those it had not recorded before. */
  record(findings: ReconcileFinding[]): Promise<Found>;
  /** Where an earlier attempt of this page got to (its last heartbeat). */
  resume?: PageHeartbeat | undefined;
}

export async function runPage<Item>(work: PageWork<Item>): Promise<PageResult> {
  const context = Context.current();
  const startedMs = Date.now();
  const takeUntilMs = startedMs + context.info.startToCloseTimeoutMs / 2;
  const progress: PageHeartbeat = work.resume ?? { after: work.after, checked: 0, calls: 0, found: {} };
  const limit = work.pageSize - progress.checked;
  const items = limit > 0 ? await work.load(progress.after, limit) : [];
  const finished = new Array<boolean>(items.length).fill(false);
  let next = 0;
  let unbroken = 0;
  let reserved = 0;
  let timeUp = false;

  const checkOne = async (item: Item) => {
    const metered = await meterOperatorCalls(() =>
      work.check(item).catch((error: unknown) => {
        // The ledger away fails the page (retried from its heartbeat); anything else is this item's alone.
        if (isDatabaseUnavailable(error)) throw error;
        return [work.unreadable(item, error)];
      }),
    );
    progress.calls += metered.calls;
    const recorded = await work.record(metered.result);
    progress.found = addFound(progress.found, recorded);
  };
  // A lane the budget has no room for stops; the others go on while it has.
  const lane = async () => {
    while (next < items.length) {
      if (Date.now() >= takeUntilMs) {
        timeUp = true;
        return;
      }
      if (progress.calls + reserved + work.callsAtMost > work.budgetLeft) return;
      const index = next++;
      reserved += work.callsAtMost;
      try {
        await checkOne(items[index]!);
      } finally {
        reserved -= work.callsAtMost;
      }
      finished[index] = true;
      while (finished[unbroken]) {
        progress.after = work.cursorOf(items[unbroken]!);
        progress.checked += 1;
        unbroken += 1;
      }
      context.heartbeat(progress);
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPERATOR_READS_IN_PARALLEL, items.length) }, lane));

  // Items left untaken with time to spare: the budget has no room for them.
  const budgetReached = next < items.length && !timeUp;
  // Fewer items than asked for, every one checked: the pass has nothing after them.
  const passOver = next === items.length && items.length < limit;
  return {
    checked: progress.checked,
    cursor: passOver ? null : progress.after,
    operatorCalls: progress.calls,
    found: progress.found,
    budgetReached,
  };
}
