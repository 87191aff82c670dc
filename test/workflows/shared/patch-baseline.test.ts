import {
  BASELINE_OF_PATCH,
  type BaselinePatch,
  PATCH_BASELINE,
  takenByBaseline,
} from '../../../workflows/shared/patch-baseline';

const patches = Object.keys(BASELINE_OF_PATCH) as BaselinePatch[];

describe('patch baseline', () => {
  test('a run started without a baseline checks every patch (its history may predate any of them)', () => {
    for (const patch of patches) {
      expect(takenByBaseline({}, patch)).toBe(false);
      expect(takenByBaseline({ patchBaseline: 0 }, patch)).toBe(false);
    }
  });

  // A new patch enters one level above the baseline and is taken in a later release (docs/architecture.md), once no
  // worker without it is left: until then it is named here as still checked.
  const stillChecked: readonly BaselinePatch[] = ['router-hop-batches', 'wallet-creation-not-sent'];

  test("the starters' baseline takes every patch listed but the new ones, so the runs they start record no other marker", () => {
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches)
      expect(takenByBaseline({ patchBaseline: PATCH_BASELINE }, patch)).toBe(!stillChecked.includes(patch));
  });

  test('a new patch is one level above the baseline, so the next release takes it by raising the baseline by one', () => {
    for (const patch of stillChecked) expect(BASELINE_OF_PATCH[patch]).toBe(PATCH_BASELINE + 1);
    expect(takenByBaseline({ patchBaseline: PATCH_BASELINE + 1 }, 'router-hop-batches')).toBe(true);
  });
});
