/**
 * The chaos suite's ledger rules on hand-made inputs: a ledger that agrees with its processes, the operator and the
 * client endpoint passes, and each way a row can be lost, stale or duplicated is flagged.
 */
import { endUserView } from '../../../src/ledger/end-users';
import { bookedResources, bookedRow, type RampState, rampView } from '../../../src/ledger/ramp-views';
import type { EndUserState } from '../../../workflows/end-user/types';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import { order, tx } from '../../helpers/ramp-fixtures';
import {
  type BookingRow,
  checkBookingsAgainstOperator,
  checkEndUserRows,
  checkOutcomeEvents,
  checkRampRows,
  compareWithOperator,
  type EndpointDelivery,
  type EventRow,
  type OperatorRecords,
  type RampInTemporal,
  type RampRow,
} from './ledger-invariants';

const T = '2026-01-01T00:00:00.000Z';
const CLOSED = '2026-01-01T00:05:00.000Z';
const WORKFLOW_ID = 'offramp/dep-1';
const webhookId = (workflowId: string, sequence: number) => `evt_${workflowId.replace('/', '~')}~${sequence}`;

const offRampState: OffRampState = {
  depositTransactionId: 'dep-1',
  status: 'settled',
  step: 'Settled',
  endUserId: 'user-1',
  unattributed: false,
  deposit: tx('dep-1', { status: 'confirmed', amount: '50' }),
  order: order('o-1', { status: 'executed', amountFrom: '50', amountTo: '858.18' }),
  orderId: 'o-1',
  fiatAmount: '858.18',
  fiatCurrency: 'MXN',
  alertsRaised: 0,
  amounts: { executed: { amountFrom: '50', amountTo: '858.18', rate: '17.1636', executedAt: T } },
  gas: {
    topUp: { asset: 'TRX', amount: '30' },
    sweep: { asset: 'TRX', amount: '15' },
    total: { asset: 'TRX', amount: '45' },
  },
  exceptions: [],
  eventsApplied: 3,
  duplicates: 0,
  polls: 0,
  startedAt: T,
  endedAt: CLOSED,
  outcomes: { sequence: 2, events: [] },
  recordedRevision: 4,
};
const ramp: RampState = { workflowId: WORKFLOW_ID, direction: 'off-ramp', state: offRampState };
const eventIds = new Map([[WORKFLOW_ID, [webhookId(WORKFLOW_ID, 1), webhookId(WORKFLOW_ID, 2)]]]);

const rampRow = (extra: Partial<RampRow> = {}): RampRow => ({
  workflowId: WORKFLOW_ID,
  status: 'settled',
  revision: 4,
  view: JSON.parse(JSON.stringify(rampView(ramp, CLOSED))) as unknown,
  updatedAt: CLOSED,
  endedAt: CLOSED,
  ...extra,
});
const booking = (extra: Partial<BookingRow> = {}): BookingRow => ({
  workflowId: WORKFLOW_ID,
  status: 'settled',
  row: bookedRow(ramp, CLOSED, eventIds.get(WORKFLOW_ID)!),
  resources: bookedResources(ramp),
  ...extra,
});
const ended = new Map<string, RampInTemporal>([[WORKFLOW_ID, { ended: true, ramp, lastWrite: ramp }]]);

const rampCheck = (
  input: Partial<Parameters<typeof checkRampRows>[0]> = {},
): ReturnType<typeof checkRampRows>['findings'] => rampCheckWithGaps(input).findings;
const rampCheckWithGaps = (input: Partial<Parameters<typeof checkRampRows>[0]> = {}) =>
  checkRampRows({
    rampIds: new Set([WORKFLOW_ID]),
    temporal: ended,
    rows: [rampRow()],
    bookings: [booking()],
    eventIds,
    operatorGas: new Map(),
    ...input,
  });

describe('ramp rows against what Temporal says each ramp ended with', () => {
  test('a row and a booked row exactly as the ramp last wrote them pass', () => {
    expect(rampCheck()).toEqual({ lostRows: [], staleRows: [], duplicateRows: [], bookingMismatches: [] });
  });

  test('a ramp without its row, or ended without its booked row, is lost', () => {
    expect(rampCheck({ rows: [] }).lostRows).toEqual([`${WORKFLOW_ID}: no row in ramps`]);
    expect(rampCheck({ bookings: [] }).lostRows).toEqual([
      `${WORKFLOW_ID}: ended settled with no booked row`,
    ]);
    expect(
      rampCheck({ temporal: new Map([[WORKFLOW_ID, { ended: true, ramp, lastWrite: undefined }]]) }).lostRows,
    ).toEqual([`${WORKFLOW_ID}: ended settled with no ledger write in its history`]);
  });

  test("a row behind the run's last write is stale: status, revision, view, booked row", () => {
    expect(rampCheck({ rows: [rampRow({ status: 'awaiting-sweep', endedAt: null })] }).staleRows).toEqual(
      expect.arrayContaining([
        expect.stringContaining('row at awaiting-sweep, not ended; its run ended settled'),
      ]),
    );
    expect(rampCheck({ rows: [rampRow({ revision: 3 })] }).staleRows).toEqual([
      `${WORKFLOW_ID}: row at revision 3; its run's last write was 4`,
    ]);
    const view = { ...(rampRow().view as Record<string, unknown>), fiatAmount: '800' };
    expect(rampCheck({ rows: [rampRow({ view })] }).staleRows).toEqual([
      expect.stringContaining(
        'view differs from what its last write carried: fiatAmount "800" (expected "858.18")',
      ),
    ]);
    // The booked row lists an event the ledger does not hold (or misses one it does).
    expect(rampCheck({ eventIds: new Map([[WORKFLOW_ID, [webhookId(WORKFLOW_ID, 1)]]]) }).staleRows).toEqual([
      expect.stringContaining('booked row differs from what its last write books: webhookIds'),
    ]);
    expect(rampCheck({ bookings: [booking({ status: 'failed' })] }).staleRows).toEqual([
      `${WORKFLOW_ID}: booked failed; its run ended settled`,
    ]);
  });

  test('a snapshot applied after the last write started is answered apart; the row is judged by that write', () => {
    // The deposit's confirmation arrived while the final write ran: in the end state, in no write.
    const endState = { ...offRampState, deposit: tx('dep-1', { status: 'confirmed', amount: '50' }) };
    const lastWrite: RampState = {
      ...ramp,
      state: { ...offRampState, deposit: tx('dep-1', { status: 'mined', amount: '50' }) },
    };
    const rows = [rampRow({ view: JSON.parse(JSON.stringify(rampView(lastWrite, CLOSED))) as unknown })];
    const bookings = [booking({ row: bookedRow(lastWrite, CLOSED, eventIds.get(WORKFLOW_ID)!) })];
    const temporal = new Map<string, RampInTemporal>([
      [WORKFLOW_ID, { ended: true, ramp: { ...ramp, state: endState }, lastWrite }],
    ]);
    expect(rampCheckWithGaps({ temporal, rows, bookings })).toEqual({
      findings: { lostRows: [], staleRows: [], duplicateRows: [], bookingMismatches: [] },
      afterFinalWrite: [expect.stringContaining(`${WORKFLOW_ID}: ended with deposit {`)],
      gasBookedLate: [],
    });
    // Had the last write carried the end state, the same row would be stale.
    const ending: RampState = { ...ramp, state: endState };
    expect(
      rampCheck({
        temporal: new Map([[WORKFLOW_ID, { ended: true, ramp: ending, lastWrite: ending }]]),
        rows,
      }).staleRows,
    ).toEqual([expect.stringContaining('view differs from what its last write carried: deposit')]);
  });

  test("gas ahead of the run's last write passes when it is what the operator charged, and is reported", () => {
    // The top-up's event came after the run ended: the run wrote the sweep's gas, the routers' hop booked the rest.
    const sweep = { asset: 'TRX', amount: '15' };
    const sweepOnly: RampState = { ...ramp, state: { ...offRampState, gas: { sweep, total: sweep } } };
    const temporal = new Map<string, RampInTemporal>([
      [WORKFLOW_ID, { ended: true, ramp: sweepOnly, lastWrite: sweepOnly }],
    ]);
    const charged = (...amounts: string[]) =>
      new Map([[WORKFLOW_ID, amounts.map((amount) => ({ asset: 'TRX', amount }))]]);
    expect(rampCheckWithGaps({ temporal, operatorGas: charged('30', '15') })).toEqual({
      findings: { lostRows: [], staleRows: [], duplicateRows: [], bookingMismatches: [] },
      afterFinalWrite: [],
      gasBookedLate: [expect.stringContaining(`${WORKFLOW_ID}: gas {"topUp"`)],
    });
    // Gas the operator did not charge is stale, in the view and in the booked row.
    expect(rampCheck({ temporal, operatorGas: charged('15') }).staleRows).toEqual([
      expect.stringContaining('view differs from what its last write carried: gas'),
      expect.stringContaining('booked row differs from what its last write books: gasAmount'),
    ]);
  });

  test('a running ramp may not be ended in the ledger', () => {
    expect(rampCheck({ temporal: new Map([[WORKFLOW_ID, { ended: false }]]) }).staleRows).toEqual([
      `${WORKFLOW_ID}: ended in the ledger (settled) while its run has not`,
    ]);
  });

  test('rows of a ramp nobody started, and one operator resource booked twice, are duplicates', () => {
    const other = { workflowId: 'offramp/dep-2' };
    expect(
      rampCheck({ rows: [rampRow(), rampRow(other)], bookings: [booking(), booking(other)] }).duplicateRows,
    ).toEqual([
      'offramp/dep-2: a ramps row of a ramp nobody started',
      'offramp/dep-2: a booked row of a ramp nobody started',
      `order/o-1 booked by 2 ramps: ${WORKFLOW_ID}, offramp/dep-2`,
      `transaction/dep-1 booked by 2 ramps: ${WORKFLOW_ID}, offramp/dep-2`,
    ]);
  });
});

describe('end-user rows against their workflows', () => {
  const state = {
    endUserId: 'user-1',
    walletStatus: 'ready',
    wallet: { walletId: 'w-1', externalUserId: 'end-user:user-1', addresses: [], createdAt: T },
    createdAt: T,
    recordedRevision: 2,
  } as unknown as EndUserState;
  const row = {
    endUserId: 'user-1',
    workflowId: 'end-user/user-1',
    walletId: 'w-1',
    revision: 2,
    view: JSON.parse(JSON.stringify(endUserView(state, T))) as unknown,
    updatedAt: T,
  };
  const endUsers = new Map([['user-1', { workflowId: 'end-user/user-1', state }]]);

  test('as written passes; missing is lost; another wallet or an older revision is stale; an unknown one a duplicate', () => {
    expect(checkEndUserRows({ endUsers, rows: [row] })).toEqual({
      lostRows: [],
      staleRows: [],
      duplicateRows: [],
      bookingMismatches: [],
    });
    expect(checkEndUserRows({ endUsers, rows: [] }).lostRows).toEqual([
      'end user user-1: no row in end_users',
    ]);
    expect(checkEndUserRows({ endUsers, rows: [{ ...row, walletId: 'w-2' }] }).staleRows).toEqual([
      'end user user-1: row holds wallet w-2; its workflow has w-1',
    ]);
    expect(checkEndUserRows({ endUsers, rows: [{ ...row, revision: 1 }] }).staleRows).toEqual([
      "end user user-1: row at revision 1; its workflow's last write was 2",
    ]);
    expect(
      checkEndUserRows({ endUsers, rows: [row, { ...row, endUserId: 'user-9' }] }).duplicateRows,
    ).toEqual(['end user user-9: a row of an end user nobody named']);
  });
});

describe("booked rows against the operator's records", () => {
  const operator: OperatorRecords = {
    workflowId: WORKFLOW_ID,
    direction: 'off-ramp',
    status: 'settled',
    endUserId: 'user-1',
    orderReference: null,
    deposit: { id: 'dep-1', status: 'confirmed', asset: 'USDT', amount: '50' },
    order: {
      id: 'o-1',
      status: 'executed',
      coinFrom: 'USDT',
      coinTo: 'MXN',
      amountFrom: '50',
      amountTo: '858.18',
    },
    gas: [
      { asset: 'TRX', amount: '30' },
      { asset: 'TRX', amount: '15.0' },
    ],
  };

  test('the same IDs, status, amounts and gas (summed, at any scale) pass', () => {
    expect(compareWithOperator(booking(), operator)).toEqual({ differs: [], behind: [] });
  });

  test('another amount, order, owner or resource amount is a mismatch', () => {
    expect(
      compareWithOperator(booking(), { ...operator, order: { ...operator.order!, amountTo: '858.17' } })
        .differs,
    ).toEqual(['amountTo 858.18 (operator: 858.17)', 'order o-1 amountTo 858.18 (operator: 858.17)']);
    expect(
      compareWithOperator(booking(), { ...operator, order: { ...operator.order!, id: 'o-2' } }).differs,
    ).toEqual(['orderId o-1 (operator: o-2)', "order o-1 booked; the operator's order of the ramp is o-2"]);
    expect(compareWithOperator(booking(), { ...operator, endUserId: 'user-2' }).differs).toEqual([
      'endUserId user-1 (operator: user-2)',
    ]);
    expect(
      compareWithOperator(booking(), { ...operator, deposit: { ...operator.deposit!, amount: '49' } })
        .differs,
    ).toEqual(['transaction dep-1 amount 50 (operator: 49)']);
  });

  test("gas or a transaction's status the ramp never heard of is behind the operator, answered apart", () => {
    expect(compareWithOperator(booking(), { ...operator, gas: [operator.gas[0]!] })).toEqual({
      differs: [],
      behind: ['gasAmount 45 (operator: 30)'],
    });
    expect(
      compareWithOperator(booking(), { ...operator, deposit: { ...operator.deposit!, status: 'failed' } }),
    ).toEqual({ differs: [], behind: ['transaction dep-1 status confirmed (operator: failed)'] });
  });

  test('a booked row of a ramp the operator never ran is a mismatch', () => {
    expect(checkBookingsAgainstOperator([booking()], new Map()).findings.bookingMismatches).toEqual([
      `${WORKFLOW_ID}: booked, but the operator has no record of it`,
    ]);
    expect(checkBookingsAgainstOperator([booking()], new Map([[WORKFLOW_ID, operator]]))).toEqual({
      findings: { lostRows: [], staleRows: [], duplicateRows: [], bookingMismatches: [] },
      behind: [],
    });
  });
});

describe('outcome events: the ledger against the client endpoint', () => {
  const body = (sequence: number) => ({ type: 'off_ramp.created', timestamp: T, data: { sequence } });
  const row = (sequence: number, extra: Partial<EventRow> = {}): EventRow => ({
    webhookId: webhookId(WORKFLOW_ID, sequence),
    processId: WORKFLOW_ID,
    sequence,
    delivery: 'delivered',
    error: null,
    body: body(sequence),
    ...extra,
  });
  const delivery = (
    sequence: number,
    at: number,
    extra: Partial<EndpointDelivery> = {},
  ): EndpointDelivery => ({
    webhookId: webhookId(WORKFLOW_ID, sequence),
    body: JSON.stringify(body(sequence)),
    verified: true,
    answered: 204,
    receivedAt: at,
    ...extra,
  });
  const raisedBy = new Map([[WORKFLOW_ID, 2]]);
  const check = (rows: EventRow[], deliveries: EndpointDelivery[], raised = raisedBy) =>
    checkOutcomeEvents({ rows, deliveries, raisedBy: raised });

  test('every event confirmed once, in order, passes; a redelivery after a confirmation is counted, not flagged', () => {
    const result = check([row(1), row(2)], [delivery(1, 1), delivery(1, 2), delivery(2, 3)]);
    expect(result.findings).toEqual({
      lostRows: [],
      staleRows: [],
      duplicateRows: [],
      bookingMismatches: [],
    });
    expect(result.counts).toEqual({ confirmed: 2, redeliveredAfterConfirmation: 1, pending: 0 });
  });

  test('pending with a refusal, or behind an earlier pending event, is allowed; pending for no reason is lost', () => {
    const waiting = check(
      [
        row(1, { delivery: 'pending', error: 'endpoint 1 answered HTTP 503' }),
        row(2, { delivery: 'pending' }),
      ],
      [delivery(1, 1, { answered: 503 })],
    );
    expect(waiting.findings.lostRows).toEqual([]);
    expect(waiting.counts.pending).toBe(2);
    expect(check([row(1), row(2, { delivery: 'pending' })], [delivery(1, 1)]).findings.lostRows).toEqual([
      `event ${webhookId(WORKFLOW_ID, 2)}: pending with no attempt refused and nothing before it`,
    ]);
  });

  test('delivered but never confirmed, given up, or with no endpoint, is lost', () => {
    expect(
      check([row(1), row(2)], [delivery(1, 1), delivery(2, 2, { answered: 503 })]).findings.lostRows,
    ).toEqual([
      `event ${webhookId(WORKFLOW_ID, 2)}: delivered in the ledger; the client endpoint never confirmed it`,
    ]);
    expect(
      check([row(1), row(2, { delivery: 'failed', error: 'gave up' })], [delivery(1, 1)]).findings.lostRows,
    ).toEqual([
      `event ${webhookId(WORKFLOW_ID, 2)}: failed (gave up); the client endpoint never confirmed it`,
    ]);
    expect(check([row(1), row(2, { delivery: 'no-endpoint' })], [delivery(1, 1)]).findings.lostRows).toEqual([
      `event ${webhookId(WORKFLOW_ID, 2)}: no-endpoint; the client endpoint never confirmed it`,
    ]);
  });

  test('an event the endpoint got that the ledger lacks, or a raised event without its row, is lost', () => {
    expect(check([row(1)], [delivery(1, 1), delivery(2, 2)]).findings.lostRows).toEqual([
      `event ${webhookId(WORKFLOW_ID, 2)}: the client endpoint got it; the ledger has no such event`,
      `events of ${WORKFLOW_ID}: raised 2, no row for #2`,
    ]);
  });

  test('rows beyond what a process raised, or of no process, are duplicates', () => {
    expect(
      check([row(1), row(2)], [delivery(1, 1), delivery(2, 2)], new Map([[WORKFLOW_ID, 1]])).findings
        .duplicateRows,
    ).toEqual([`events of ${WORKFLOW_ID}: rows #2 beyond the 1 it raised`]);
    expect(
      check([row(1), row(2)], [delivery(1, 1), delivery(2, 2)], new Map()).findings.duplicateRows,
    ).toEqual([`events of ${WORKFLOW_ID}: 2 rows of a process nobody started`]);
  });

  test('another body, a bad signature, a delivery out of order, or failed after a confirmation is stale', () => {
    expect(
      check([row(1), row(2)], [delivery(1, 1, { body: JSON.stringify(body(9)) }), delivery(2, 2)]).findings
        .staleRows,
    ).toEqual([`event ${webhookId(WORKFLOW_ID, 1)}: 1 of its deliveries carried another body than its row`]);
    expect(
      check([row(1), row(2)], [delivery(1, 1, { verified: false }), delivery(2, 2)]).findings.staleRows,
    ).toEqual([`event ${webhookId(WORKFLOW_ID, 1)}: 1 of its deliveries carried no valid signature`]);
    expect(check([row(1), row(2)], [delivery(2, 1), delivery(1, 2)]).findings.staleRows).toEqual([
      `event ${webhookId(WORKFLOW_ID, 2)}: reached the endpoint before #1 of its process was confirmed`,
    ]);
    expect(
      check([row(1), row(2, { delivery: 'failed', error: 'x' })], [delivery(1, 1), delivery(2, 2)]).findings
        .staleRows,
    ).toEqual([`event ${webhookId(WORKFLOW_ID, 2)}: the endpoint confirmed it; the ledger says it failed`]);
  });
});
