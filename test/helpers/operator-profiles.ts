/** The variant operator profile of the sandbox tests, and what it changes, as the probe's rows name it. */
import path from 'node:path';
import { readOperatorProfile } from '../../src/config/operator-profile';
import { DEFAULT_OPERATOR_PROFILE, type OperatorProfile } from '../../src/domain/operator-profile';

export const VARIANT_PROFILE_FILE = path.join(
  __dirname,
  '..',
  'fixtures',
  'operator-profiles',
  'variant.json',
);

export const variantProfile = (): OperatorProfile => readOperatorProfile(VARIANT_PROFILE_FILE);

/** The dotted keys of every leaf where `a` and `b` differ. */
function differingLeaves(a: unknown, b: unknown, prefix = ''): string[] {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) =>
      differingLeaves(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        prefix ? `${prefix}.${key}` : key,
      ),
    );
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
}

/** Parts the probe reports as one row: a word list, a field list, an error body. */
const ONE_ROW = [/^login\.fields/, /^errors\.body/, /^vocabulary\.[A-Za-z]+/];

/** The probe's row keys for what `profile` changes from our assumptions: the differences planted in it. */
export function plantedDifferences(profile: OperatorProfile): string[] {
  const keys = differingLeaves(profile, DEFAULT_OPERATOR_PROFILE).map((key) => {
    const row = ONE_ROW.map((pattern) => pattern.exec(key)?.[0]).find((match) => match !== undefined);
    return row ?? key;
  });
  return [...new Set(keys)].sort();
}
