/** An operator stand-in for the ramp activities' unit tests: reads answered from two maps, each one recorded. */
type Raw = Record<string, unknown>;

/**
 * Get Transaction and Get Order answered from `transactions` and `orders` (a completed deposit, an executed order,
 * unless the map says otherwise); `reads` lists them in order (`tx:<id>`, `order:<id>`), `readOptions` what each
 * was given.
 */
export function answeringOperator(transactions: Record<string, Raw>, orders: Record<string, Raw> = {}) {
  const reads: string[] = [];
  const readOptions: unknown[] = [];
  return {
    reads,
    readOptions,
    client: {
      getTransaction: (id: string, options?: unknown) => {
        reads.push(`tx:${id}`);
        readOptions.push(options);
        return Promise.resolve({
          id,
          status: 'completed',
          type: 'Deposit',
          walletId: 'w-1',
          ...transactions[id],
        });
      },
      getOrder: (id: string, options?: unknown) => {
        reads.push(`order:${id}`);
        readOptions.push(options);
        return Promise.resolve({ id, orderReference: `ref-${id}`, status: 'executed', ...orders[id] });
      },
    },
  };
}
