/**
 * The gas an off-ramp cost: what the operator reports for its top-up (a first deposit to a wallet) and its sweep,
 * in the network's native asset, and their sum. Pure, decimal strings. Workflow-safe.
 */
import { formatFraction, fractionOf, type Fraction } from './decimal';

/** An amount of a network's native asset (ETH, TRX). */
export interface GasSpent {
  asset: string;
  amount: string;
}

export interface RampGas {
  topUp?: GasSpent;
  sweep?: GasSpent;
  /** topUp + sweep; absent when they are in different assets. */
  total?: GasSpent;
}

/** The ramp's gas from what the operator reported; undefined when it reported none. */
export function rampGas(topUp: GasSpent | undefined, sweep: GasSpent | undefined): RampGas | undefined {
  const spent = [topUp, sweep].filter((entry): entry is GasSpent => entry !== undefined);
  if (spent.length === 0) return undefined;
  const asset = spent[0]!.asset;
  const sameAsset = spent.every((entry) => entry.asset === asset);
  const sum = spent.reduce<Fraction>(
    (total, entry) => {
      const amount = fractionOf(entry.amount);
      return {
        numerator: total.numerator * amount.denominator + amount.numerator * total.denominator,
        denominator: total.denominator * amount.denominator,
      };
    },
    { numerator: 0n, denominator: 1n },
  );
  return {
    ...(topUp ? { topUp } : {}),
    ...(sweep ? { sweep } : {}),
    ...(sameAsset ? { total: { asset, amount: formatFraction(sum, 18) } } : {}),
  };
}
