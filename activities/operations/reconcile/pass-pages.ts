/**
 * One page of each pass that reads the operator: open ramps, deposit wallets and booked rows, each a run of the page
 * (pages.ts) over its own rows with its own check.
 */
import { Context } from '@temporalio/activity';
import { errorMessage } from '../../../src/domain/errors';
import type { WorkflowTimings } from '../../../src/domain/timings';
import { bookingsToCheck } from '../../../src/ledger/reconciliation';
import { openRampsAfter, walletsDueAfter } from '../../../src/ledger/reconcile-pages';
import { createHop } from '../../../src/routing/hop';
import { unreadableProcess } from '../../../workflows/operations/reconcile/findings';
import type { PageCursor, PageInput, PageResult } from '../../../workflows/operations/reconcile/types';
import type { ActivityDeps } from '../../deps';
import { snapshotReads } from '../../shared/snapshots';
import { walletsDue } from './checks';
import { checkWallet, WALLET_CALLS_AT_MOST, type WalletCheck } from './deposit-wallets';
import { BOOKING_CALLS_AT_MOST, BOOKINGS_PER_RUN, checkBooking, LEDGER_LOOKBACK_MS } from './ledger';
import { checkOpenRamp, RAMP_CALLS_AT_MOST, type RampCheck } from './open-ramps';
import { PAGE_SIZE, type PageHeartbeat, type PageWork, runPage } from './pages';

export type RecordFindings = PageWork<unknown>['record'];

/** A page of a pass: `resume` is where an earlier attempt of it got to. */
export type PassPage = (
  input: PageInput,
  record: RecordFindings,
  resume?: PageHeartbeat,
) => Promise<PageResult>;

export function createPassPages(deps: ActivityDeps): Record<'ramps' | 'wallets' | 'bookings', PassPage> {
  const hop = createHop({
    reads: snapshotReads(deps.operator),
    temporal: deps.temporal,
    logger: deps.logger,
    ledger: deps.ledger,
  });
  const place = () => ({ taskQueue: Context.current().info.taskQueue });
  const rampCheck = (timings: WorkflowTimings): RampCheck => ({ deps, hop, place: place(), timings });
  const walletCheck = (input: { timings: WorkflowTimings; startMissing: boolean }, transactions: boolean) =>
    ({
      deps,
      hop,
      place: place(),
      timings: input.timings,
      startMissing: input.startMissing,
      listing: { transactions },
    }) satisfies WalletCheck;

  const common = (input: PageInput, record: RecordFindings, resume: PageHeartbeat | undefined) => ({
    after: input.progress.cursor,
    pageSize: input.pageSize ?? PAGE_SIZE,
    budgetLeft: input.progress.budget - input.progress.operatorCalls,
    record,
    resume,
  });

  return {
    ramps: (input, record, resume) => {
      const check = rampCheck(input.timings);
      return runPage({
        ...common(input, record, resume),
        callsAtMost: RAMP_CALLS_AT_MOST,
        load: (after, limit) => openRampsAfter(deps.ledger, after, limit),
        cursorOf: (ramp) => ramp.cursor,
        check: (ramp) => checkOpenRamp(check, ramp),
        unreadable: (ramp, error) => unreadableProcess(ramp.workflowId, errorMessage(error)),
      });
    },

    wallets: async (input, record, resume) => {
      const check = walletCheck(input, input.progress.transactionListing);
      const due = walletsDue(input.progress.startedAt, input.progress.intervalMs);
      const page = await runPage({
        ...common(input, record, resume),
        callsAtMost: WALLET_CALLS_AT_MOST,
        load: (after, limit) => walletsDueAfter(deps.ledger, due, after, limit),
        cursorOf: (wallet) => wallet.cursor,
        check: (wallet) => checkWallet(check, wallet),
        unreadable: (wallet, error) => unreadableProcess(wallet.workflowId, errorMessage(error)),
      });
      return { ...page, transactionListing: check.listing.transactions };
    },

    bookings: async (input, record, resume) => {
      const left = BOOKINGS_PER_RUN - input.progress.checked.bookings;
      const page = await runPage({
        ...common(input, record, resume),
        pageSize: Math.min(input.pageSize ?? PAGE_SIZE, left),
        callsAtMost: BOOKING_CALLS_AT_MOST,
        // A row this run checked leaves the selection: the cursor only marks how far the page got.
        load: (_after, limit) =>
          bookingsToCheck(deps.ledger, LEDGER_LOOKBACK_MS, input.progress.startedAt, limit),
        cursorOf: (booking): PageCursor => ({ at: booking.closedAt, id: booking.workflowId }),
        check: (booking) => checkBooking(deps, booking),
        unreadable: (booking, error) => unreadableProcess(booking.workflowId, errorMessage(error)),
      });
      return page.checked >= left ? { ...page, cursor: null } : page;
    },
  };
}
