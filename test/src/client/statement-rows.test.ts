/** The statement's booked rows, reconciliation, totals and CSV, from hand-made final states. */
import { CSV_HEADER, csvRowLine, csvTotalLine, StatementTotals } from '../../../src/client/statement-rows';
import { bookedResources, bookedRow, type RampState } from '../../../src/ledger/ramp-views';
import { compareBooked, resourceKey, type ResourceRead } from '../../../src/ledger/reconciliation';
import type { StatementRow } from '../../../src/ledger/views';
import type { OffRampState } from '../../../workflows/ramps/offramp/types';
import type { OnRampState } from '../../../workflows/ramps/onramp/types';
import { order, tx } from '../../helpers/ramp-fixtures';

const T = '2026-01-01T00:00:00.000Z';
const CLOSED = '2026-01-01T00:05:00.000Z';
const outbox = (workflowId: string, n: number) => ({
  sequence: n,
  events: Array.from({ length: n }, (_unused, index) => ({
    webhookId: `evt_${workflowId.replace('/', '~')}~${index + 1}`,
    event: {
      type: 'off_ramp.created' as const,
      timestamp: T,
      data: { workflowId, endUserId: null, status: 's', step: 's' },
    },
    delivery: 'delivered' as const,
  })),
});

const settledOrder = order('o-1', { status: 'executed', amountFrom: '50', amountTo: '858.18' });
const offRampState: OffRampState = {
  depositTransactionId: 'dep-1',
  status: 'settled',
  step: 'Settled',
  endUserId: 'user-1',
  unattributed: false,
  deposit: tx('dep-1', { status: 'confirmed' }),
  order: settledOrder,
  orderId: 'o-1',
  fiatAmount: '858.18',
  fiatCurrency: 'MXN',
  alertsRaised: 0,
  amounts: {
    quoted: { amountFrom: '50', targetAmount: '860', rate: '17.2', expiresAt: T },
    executed: { amountFrom: '50', amountTo: '858.18', rate: '17.1636', executedAt: T },
    difference: '-1.82',
    differencePercent: '-0.2116',
    executedAfterExpiry: false,
  },
  gas: {
    topUp: { asset: 'TRX', amount: '30' },
    sweep: { asset: 'TRX', amount: '15' },
    total: { asset: 'TRX', amount: '45' },
  },
  exceptions: [{ reason: 'below_minimum', message: 'small', seenAt: T }],
  eventsApplied: 3,
  duplicates: 0,
  polls: 0,
  startedAt: T,
  endedAt: CLOSED,
  outcomes: outbox('offramp/dep-1', 2),
};
const offRamp: RampState = { workflowId: 'offramp/dep-1', direction: 'off-ramp', state: offRampState };

const onRampState: OnRampState = {
  orderReference: 'ref-1',
  status: 'settled',
  step: 'Settled',
  endUserId: 'user-2',
  unattributed: false,
  order: order('o-2', {
    orderReference: 'ref-1',
    status: 'executed',
    direction: 'on-ramp',
    coinFrom: 'MXN',
    coinTo: 'USDT',
    chainTo: 'TRX',
    amountFrom: '1000',
    amountTo: '57.681159',
  }),
  deposit: tx('dep-2', { status: 'confirmed', amount: '57.681159', walletId: 'master' }),
  cryptoAmount: '57.681159',
  asset: 'USDT',
  amounts: { executed: { amountFrom: '1000', amountTo: '57.681159', rate: '0.057681159', executedAt: T } },
  claimedAt: CLOSED,
  eventsApplied: 4,
  duplicates: 0,
  polls: 0,
  startedAt: T,
  endedAt: T,
  outcomes: outbox('onramp/ref-1', 3),
};
const onRamp: RampState = { workflowId: 'onramp/ref-1', direction: 'on-ramp', state: onRampState };

/** The booked row as the ledger writes it when the ramp ends: its events' webhook-ids in order. */
const statementRow = (ramp: RampState) =>
  bookedRow(
    ramp,
    CLOSED,
    ramp.state.outcomes.events.map((record) => record.webhookId),
  );

const reads = (entries: ResourceRead[]) => new Map(entries.map((read) => [resourceKey(read), read]));
const orderRead = (snapshot: typeof settledOrder) => ({
  kind: 'order' as const,
  id: snapshot.id,
  status: snapshot.status,
  amountFrom: snapshot.amountFrom,
  amountTo: snapshot.amountTo,
});
const transactionRead = (snapshot: ReturnType<typeof tx>) => ({
  kind: 'transaction' as const,
  id: snapshot.id,
  status: snapshot.status,
  amount: snapshot.amount,
});

describe('statement rows', () => {
  test('an off-ramp: IDs, events, what the user sent and got, the quote, the deviation, the gas, the exceptions', () => {
    expect(statementRow(offRamp)).toEqual({
      workflowId: 'offramp/dep-1',
      direction: 'off-ramp',
      status: 'settled',
      endUserId: 'user-1',
      orderReference: null,
      depositTransactionId: 'dep-1',
      orderId: 'o-1',
      webhookIds: ['evt_offramp~dep-1~1', 'evt_offramp~dep-1~2'],
      assetFrom: 'USDT',
      amountFrom: '50',
      assetTo: 'MXN',
      amountTo: '858.18',
      rate: '17.1636',
      quotedAmountFrom: '50',
      quotedTargetAmount: '860',
      quotedRate: '17.2',
      quoteExpiresAt: T,
      difference: '-1.82',
      differencePercent: '-0.2116',
      executedAfterExpiry: false,
      gasAsset: 'TRX',
      gasAmount: '45',
      exceptions: ['below_minimum'],
      startedAt: T,
      endedAt: CLOSED,
      claimedAt: null,
      closedAt: CLOSED,
    });
  });

  test('an on-ramp claimed late', () => {
    expect(statementRow(onRamp)).toMatchObject({
      orderReference: 'ref-1',
      depositTransactionId: 'dep-2',
      orderId: 'o-2',
      assetFrom: 'MXN',
      amountFrom: '1000',
      assetTo: 'USDT',
      amountTo: '57.681159',
      claimedAt: CLOSED,
      quotedRate: null,
      gasAmount: null,
    });
  });
});

describe('reconciliation', () => {
  test('the resources a ramp booked are read again; matching statuses and amounts match', () => {
    expect(bookedResources(offRamp)).toEqual([
      { kind: 'order', id: 'o-1', status: 'executed', amountFrom: '50', amountTo: '858.18' },
      { kind: 'transaction', id: 'dep-1', status: 'confirmed', amount: offRampState.deposit!.amount },
    ]);
    const fresh = reads([orderRead(settledOrder), transactionRead(tx('dep-1', { status: 'confirmed' }))]);
    expect(compareBooked(bookedResources(offRamp), fresh)).toEqual({
      reconciled: 'matches',
      reconciliation: '',
    });
  });

  test('a difference says what the operator says; a failed read says why', () => {
    const booked = bookedResources(offRamp);
    const fresh = reads([
      orderRead({ ...settledOrder, amountTo: '850' }),
      transactionRead(tx('dep-1', { status: 'confirmed' })),
    ]);
    expect(compareBooked(booked, fresh)).toEqual({
      reconciled: 'differs',
      reconciliation: 'the operator says order o-1 amountTo 850 (booked 858.18)',
    });
    expect(
      compareBooked(
        booked,
        reads([
          { kind: 'order', id: 'o-1', error: 'operator answered 503' },
          transactionRead(tx('dep-1', { status: 'confirmed' })),
        ]),
      ),
    ).toEqual({ reconciled: 'unreadable', reconciliation: 'order o-1: operator answered 503' });
    expect(compareBooked([], new Map())).toEqual({
      reconciled: 'nothing-to-read',
      reconciliation: 'the ramp booked no operator resource',
    });
  });
});

describe('totals and CSV', () => {
  const row = (ramp: RampState): StatementRow => ({
    ...statementRow(ramp),
    reconciled: 'matches',
    reconciliation: '',
  });

  test('totals per status and asset: what users sent, what they received, the gas', () => {
    const totals = new StatementTotals();
    totals.add(row(offRamp));
    totals.add(row(offRamp));
    totals.add(row(onRamp));
    expect(totals.entries()).toEqual([
      { status: 'settled', asset: 'MXN', ramps: 3, received: '1000', delivered: '1716.36', gas: '0' },
      { status: 'settled', asset: 'TRX', ramps: 2, received: '0', delivered: '0', gas: '90' },
      { status: 'settled', asset: 'USDT', ramps: 3, received: '100', delivered: '57.681159', gas: '0' },
    ]);
  });

  test('CSV lines: quoted where needed, lists space-separated, totals in their own columns', () => {
    const line = csvRowLine({ ...row(offRamp), reconciliation: 'the operator says "x", y' });
    expect(line.endsWith('\r\n')).toBe(true);
    expect(csvFields(line)).toHaveLength(CSV_HEADER.length);
    expect(csvFields(line)[CSV_HEADER.indexOf('reconciliation')]).toBe('the operator says "x", y');
    expect(line).toContain(',evt_offramp~dep-1~1 evt_offramp~dep-1~2,');
    expect(line).toContain('"the operator says ""x"", y"');
    expect(
      csvTotalLine({ status: 'settled', asset: 'MXN', ramps: 3, received: '1000', delivered: '1', gas: '0' }),
    ).toBe(`total,,,settled${','.repeat(CSV_HEADER.length - 9)},MXN,3,1000,1,0\r\n`);
  });
});

/** RFC 4180 fields of one line. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  const text = line.replace(/\r\n$/, '');
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
