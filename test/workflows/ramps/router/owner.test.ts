import {
  OFF_RAMP_ORDER_UNROUTABLE,
  orderToSettleFrom,
  routeOrder,
  routeTransaction,
} from '../../../../workflows/ramps/router/owner';
import { order, tx } from '../../../helpers/ramp-fixtures';

describe('routeTransaction', () => {
  test('a deposit with an order is the on-ramp deposit to the master wallet', () => {
    expect(routeTransaction(tx('d', { orderId: 'o-1' }))).toEqual({ kind: 'onramp-order', orderId: 'o-1' });
  });
  test('any other deposit starts its own off-ramp', () => {
    expect(routeTransaction(tx('d'))).toEqual({
      kind: 'offramp',
      depositTransactionId: 'd',
      role: 'deposit',
    });
  });
  test('sweep, gas top-up and order transaction go to the off-ramp of their related deposit', () => {
    expect(routeTransaction(tx('s', { type: 'AutoSweep', relatedTransactionId: 'd' }))).toEqual({
      kind: 'offramp',
      depositTransactionId: 'd',
      role: 'sweep',
    });
    expect(routeTransaction(tx('g', { type: 'Internal Transfer', relatedTransactionId: 'd' }))).toMatchObject(
      {
        role: 'gasTopUp',
      },
    );
    expect(routeTransaction(tx('o', { type: 'AutoSwap', relatedTransactionId: 'd' }))).toMatchObject({
      role: 'orderTransaction',
    });
  });
  test('a linked kind without its related transaction, or an unknown kind, is unroutable', () => {
    expect(routeTransaction(tx('s', { type: 'AutoSweep' }))).toEqual({
      kind: 'unroutable',
      reason: 'AutoSweep transaction has no relatedTransactionId',
    });
    expect(routeTransaction(tx('w', { type: 'Withdrawal' })).kind).toBe('unroutable');
  });
});

describe('routeOrder', () => {
  test("an on-ramp's order goes to the on-ramp of its reference", () => {
    expect(routeOrder(order('o-1', { direction: 'on-ramp' }))).toEqual({
      kind: 'onramp',
      orderReference: 'ref-o-1',
    });
    expect(routeOrder(order('o-2', { direction: null }))).toEqual({
      kind: 'onramp',
      orderReference: 'ref-o-2',
    });
  });
  test("an off-ramp's order belongs to no process: its off-ramp reads it", () => {
    expect(routeOrder(order('o-3'))).toEqual({ kind: 'unroutable', reason: OFF_RAMP_ORDER_UNROUTABLE });
  });
});

describe('orderToSettleFrom', () => {
  test('a sweep or an order transaction that names its order brings it along; nothing else does', () => {
    const swap = tx('otx-1', { type: 'AutoSwap', status: 'created', orderId: 'o-1' });
    expect(orderToSettleFrom({ role: 'orderTransaction', transaction: swap })).toBe('o-1');
    expect(orderToSettleFrom({ role: 'sweep', transaction: { ...swap, type: 'AutoSweep' } })).toBe('o-1');
    expect(
      orderToSettleFrom({ role: 'orderTransaction', transaction: { ...swap, orderId: null } }),
    ).toBeUndefined();
    expect(orderToSettleFrom({ role: 'deposit', transaction: swap })).toBeUndefined();
    expect(orderToSettleFrom({ role: 'gasTopUp', transaction: swap })).toBeUndefined();
  });
});
