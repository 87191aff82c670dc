import {
  advance,
  newProgress,
  progressDetails,
  resultOf,
} from '../../../../workflows/operations/reconcile/progress';
import type { PageResult } from '../../../../workflows/operations/reconcile/types';

const START = newProgress('ops/reconcile-1', '2026-01-01T00:00:00.000Z', 3_600_000, 1_000);
const page = (overrides: Partial<PageResult>): PageResult => ({
  checked: 100,
  cursor: { at: '2026-01-01 00:00:00+00', id: 'x' },
  operatorCalls: 150,
  found: {},
  budgetReached: false,
  ...overrides,
});

describe('a paged run', () => {
  test('a page with more after it keeps the pass and moves its cursor; its counts add up', () => {
    const next = advance(START, page({ found: { 'status-mismatch': 2 } }));
    expect(next).toMatchObject({
      pass: 'ramps',
      cursor: { id: 'x' },
      operatorCalls: 150,
      pages: 1,
      checked: { ramps: 100, wallets: 0 },
      found: { 'status-mismatch': 2 },
    });
    const again = advance(next, page({ found: { 'status-mismatch': 1, unreadable: 1 } }));
    expect(again.found).toEqual({ 'status-mismatch': 3, unreadable: 1 });
    expect(again.checked.ramps).toBe(200);
  });

  test('the last page of a pass starts the next from its beginning; the last pass ends the run', () => {
    const wallets = advance({ ...START, cursor: { at: 'a', id: 'b' } }, page({ cursor: null }));
    expect(wallets).toMatchObject({ pass: 'wallets', cursor: null });
    const walletsDone = advance(wallets, page({ cursor: null, checked: 7, transactionListing: false }));
    expect(walletsDone).toMatchObject({
      pass: 'unrecorded',
      transactionListing: false,
      checked: { wallets: 7 },
    });
    const bookings = advance(walletsDone, page({ cursor: null, checked: 3, operatorCalls: 0 }));
    expect(bookings).toMatchObject({ pass: 'bookings', checked: { unrecorded: 3 } });
    expect(advance(bookings, page({ cursor: null })).pass).toBe('done');
  });

  test('a page that met the budget ends the run where it stood, saying in which pass', () => {
    const stopped = advance({ ...START, pass: 'wallets' }, page({ budgetReached: true }));
    expect(stopped).toMatchObject({ pass: 'done', stoppedInPass: 'wallets' });
    expect(progressDetails(stopped)).toContain('stopped in the wallets pass: operator budget spent');
    expect(resultOf(stopped, 'b').stoppedInPass).toBe('wallets');
  });

  test('current details: where the run stands, what it checked and found, its calls against its budget', () => {
    const running = advance(START, page({ found: { 'unknown-deposit': 1 } }));
    expect(progressDetails(running).split('\n')).toEqual([
      'Reconciliation since 2026-01-01T00:00:00.000Z: checking ramps (1 pages, run 1)',
      'open ramps 100, deposit wallets 0, ramps listed for a ledger row 0, booked rows 0',
      'operator calls 150 of 1000',
      'findings: 1 unknown-deposit (npm run reconcile -- --last lists them)',
    ]);
  });

  test('the result counts what the run checked and found; its findings are under its run ID', () => {
    const done = advance({ ...START, pass: 'bookings' }, page({ cursor: null, checked: 4 }));
    expect(resultOf(done, '2026-01-01T00:10:00.000Z')).toEqual({
      runId: 'ops/reconcile-1',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:10:00.000Z',
      processesChecked: 0,
      walletsChecked: 0,
      transactionListing: true,
      ledger: { rampsListed: 0, bookingsChecked: 4 },
      found: {},
      operatorCalls: 150,
      budget: 1_000,
      pages: 1,
      runs: 1,
    });
  });
});
